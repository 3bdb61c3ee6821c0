package web

import (
	"slices"
	"strings"

	"github.com/switchboard/switchboard/internal/apperr"
)

// fieldErrors places a refusal's sentences at the fields a form shows;
// the sentences about other fields go under "" (on top of the form), all
// of them, so that none is lost when a form shows none of its fields.
func fieldErrors(ae *apperr.Error, shown []string) map[string]string {
	out := map[string]string{}
	for _, field := range ae.Fields {
		msg := ae.MessageFor(field)
		switch {
		case slices.Contains(shown, field):
			if out[field] == "" {
				out[field] = msg
			}
		case !strings.Contains(out[""], msg):
			out[""] = strings.TrimPrefix(out[""]+", "+msg, ", ")
		}
	}
	if len(ae.Fields) == 0 {
		out[""] = ae.Message
	}
	return out
}
