package core_test

import (
	"testing"

	"entgo.io/ent/entc/load"

	"github.com/switchboard/switchboard/internal/core"
)

// TestAccountRowsOutsideTenancyAreListed: a cache takes the account of a
// member's update to be the member's own because AccountMixin's policy
// keeps it there; an entity that names an account without the mixin must be
// listed as outside that rule, and nothing else may be.
func TestAccountRowsOutsideTenancyAreListed(t *testing.T) {
	spec, err := (&load.Config{Path: "../../ent/schema"}).Load()
	if err != nil {
		t.Fatal(err)
	}
	outside := map[string]bool{}
	for _, s := range spec.Schemas {
		for _, f := range s.Fields {
			if f.Name == "account_id" && (f.Position == nil || !f.Position.MixedIn) {
				outside[s.Name] = true
			}
		}
	}
	if len(outside) != len(core.OutsideTenancy) {
		t.Errorf("entities naming an account outside AccountMixin: %v; listed: %v", outside, core.OutsideTenancy)
	}
	for name := range outside {
		if !core.OutsideTenancy[name] {
			t.Errorf("%s names an account outside AccountMixin and is not listed in outsideTenancy", name)
		}
	}
}
