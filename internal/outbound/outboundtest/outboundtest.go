// Package outboundtest sets the outbound address guard for one test.
package outboundtest

import (
	"testing"

	"github.com/switchboard/switchboard/internal/outbound"
)

// AllowPrivate lifts (true) or keeps (false) the outbound address guard
// until t ends. The setting is process-wide, so, like t.Setenv, it must not
// run in a parallel test: setting a marker variable with t.Setenv makes the
// testing package refuse that, as it would for the variable itself.
func AllowPrivate(t testing.TB, allow bool) {
	t.Helper()
	t.Setenv("SWITCHBOARD_TEST_OUTBOUND_GUARD_SET", "1")
	t.Cleanup(outbound.SetAllowPrivate(allow))
}
