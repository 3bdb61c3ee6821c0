package inboxes

import (
	"strings"

	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/core"
)

// IMAPInput is where an e-mail inbox receives its mail; nil was not sent.
type IMAPInput struct {
	Enabled   *bool
	Address   *string
	Port      *int
	Login     *string
	Password  *string
	EnableSSL *bool
}

// mergedOver writes the sent IMAP settings over the stored ones. A new
// configuration uses TLS unless told otherwise, as Chatwoot does: the login
// and password must not travel in clear by default.
func (in *IMAPInput) mergedOver(old *schematype.IMAPConfig) *schematype.IMAPConfig {
	cfg := schematype.IMAPConfig{EnableSSL: true}
	if old != nil {
		cfg = *old
	}
	put(&cfg.Enabled, in.Enabled)
	put(&cfg.Address, in.Address)
	put(&cfg.Port, in.Port)
	put(&cfg.Login, in.Login)
	putSecret(&cfg.Password, in.Password)
	put(&cfg.EnableSSL, in.EnableSSL)
	cfg.Address = strings.TrimSpace(cfg.Address)
	return &cfg
}

// maskedIMAP is cfg with its password replaced by SecretMask.
func maskedIMAP(cfg *schematype.IMAPConfig) *schematype.IMAPConfig {
	if cfg == nil {
		return nil
	}
	c := *cfg
	c.Password = maskSecret(c.Password)
	return &c
}

// checkIMAP validates the receiving settings of an e-mail inbox. Enabled
// settings must be complete (the fetcher would otherwise fail at every
// attempt); disabled ones may be partial, but what is set must be valid.
func checkIMAP(cfg *schematype.IMAPConfig, errs *core.FieldErrors) {
	if cfg == nil {
		return
	}
	switch {
	case cfg.Address == "" && cfg.Enabled:
		errs.Add("channel.imap_address", "IMAP address can't be blank when IMAP is enabled")
	case cfg.Address != "" && (strings.ContainsAny(cfg.Address, " \t/") || len(cfg.Address) > 253):
		errs.Add("channel.imap_address", "IMAP address must be a host name, such as imap.example.com")
	case cfg.Address != "":
		core.CheckOutboundHost(errs, "channel.imap_address", "IMAP address", cfg.Address)
	}
	// 0 means the default port (993, or 143 without SSL).
	if cfg.Port < 0 || cfg.Port > 65535 {
		errs.Add("channel.imap_port", "IMAP port must be between 1 and 65535")
	}
	if cfg.Enabled && blank(cfg.Login) {
		errs.Add("channel.imap_login", "IMAP login can't be blank when IMAP is enabled")
	}
	if cfg.Enabled && cfg.Password == "" {
		errs.Add("channel.imap_password", "IMAP password can't be blank when IMAP is enabled")
	}
	if len(cfg.Login) > 255 || len(cfg.Password) > 1024 {
		errs.Add("channel.imap_login", "IMAP login and password must be at most 255 and 1024 characters")
	}
}
