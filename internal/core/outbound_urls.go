package core

import (
	"errors"

	"github.com/switchboard/switchboard/internal/outbound"
)

// CheckOutboundURL is the one configuration-time check of a URL the service
// will call (account webhooks, API inbox webhook URLs, the kanban webhook,
// agent bots): an http(s) URL whose host is no localhost and no literal
// special-purpose address. The dialer checks again every address a name
// resolves to. field is the request's name for it, label its words.
func CheckOutboundURL(errs *FieldErrors, field, label, raw string) {
	switch err := outbound.CheckURL(raw); {
	case err == nil:
	case errors.Is(err, outbound.ErrNotHTTP):
		errs.Add(field, label+" must be an http(s) URL")
	default:
		errs.Add(field, label+" must not point to localhost or a private, loopback or reserved network address")
	}
}

// CheckOutboundHost is CheckOutboundURL for a bare host (an SMTP server).
func CheckOutboundHost(errs *FieldErrors, field, label, host string) {
	if outbound.CheckHost(host) != nil {
		errs.Add(field, label+" must not be localhost or a private, loopback or reserved network address")
	}
}
