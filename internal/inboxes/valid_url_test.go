package inboxes

import "testing"

// A web widget's website must be an http(s) URL with a host; the address
// itself is not checked (an intranet site is a fine place for a widget).
func TestValidHTTPURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://www.acme.test", true},
		{"  HTTPS://Acme.test/shop?x=1 ", true},
		{"http://a", true}, // a one-letter host is a host
		{"http://10.1.2.3/intranet", true},
		{"http://localhost:3000", true},
		{"https:///", false}, // no host
		{"https://?q", false},
		{"https://:443", false},
		{"https://", false},
		{"ftp://acme.test", false},
		{"acme.test", false},
		{"mailto:ada@acme.test", false},
		{"", false},
	} {
		if got := validHTTPURL(tc.url); got != tc.want {
			t.Errorf("validHTTPURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}
