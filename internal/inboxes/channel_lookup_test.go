package inboxes

import (
	"testing"

	"github.com/switchboard/switchboard/ent/inbox"
)

// TestLookupKeysNeverCollide: a lookup's cache key tells every lookup apart,
// whatever text a caller puts in a value (a visitor chooses its inbox
// identifier).
func TestLookupKeysNeverCollide(t *testing.T) {
	api, widget := inbox.ChannelTypeAPI, inbox.ChannelTypeWebWidget
	lookups := []struct {
		limit int
		keys  []ChannelKey
	}{
		{1, []ChannelKey{{api, "a"}, {widget, "a"}}},
		{2, []ChannelKey{{api, "a"}, {widget, "a"}}},
		{1, []ChannelKey{{api, "a"}}},
		{1, []ChannelKey{{widget, "a"}, {api, "a"}}},
		{1, []ChannelKey{{api, "a;web_widget 1 a"}}},
		{1, []ChannelKey{{api, "a 1"}, {widget, "a"}}},
		{1, []ChannelKey{{api, "a\nweb_widget a"}, {widget, "a"}}},
	}
	seen := map[channelLookup]int{}
	for i, l := range lookups {
		k := lookupKey(l.limit, l.keys)
		if j, dup := seen[k]; dup {
			t.Errorf("lookups %d and %d share the key %+v", j, i, k)
		}
		seen[k] = i
	}
}
