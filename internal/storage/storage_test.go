package storage

import (
	"strings"
	"testing"
)

func TestSafeName(t *testing.T) {
	long := strings.Repeat("é", 150) + ".pdf"
	cases := []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"..", FallbackName},
		{".", FallbackName},
		{"", FallbackName},
		{"   ", FallbackName},
		{"../../etc/passwd", "passwd"},
		{`..\..\boot.ini`, "boot.ini"},
		{"dir/", FallbackName},
		{".htaccess", "htaccess"},
		{". .env", "env"},
		{"." + strings.Repeat(" ", 300) + "0.0", "0.0"}, // found by FuzzSafeName: it was ".0"
		{"a\x00b\x1fc\x7f.txt", "abc.txt"},
		{"line\r\nbreak.txt", "linebreak.txt"},
		{`quote"d.txt`, "quoted.txt"},
		{"trailing. . ", "trailing"},
		{"bad\xffutf8.txt", "badutf8.txt"},
		{"relatório.pdf", "relatório.pdf"},
	}
	for _, c := range cases {
		if got := SafeName(c.in); got != c.want {
			t.Errorf("SafeName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	got := SafeName(long)
	if len(got) > MaxNameBytes || !strings.HasSuffix(got, ".pdf") || !strings.HasPrefix(got, "éé") {
		t.Errorf("SafeName(long) = %q (%d bytes), want ≤ %d bytes ending in .pdf", got, len(got), MaxNameBytes)
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"a.txt", "..", "../x", `a\b`, "\x00", strings.Repeat("ü", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := SafeName(in)
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, "/\\\x00\r\n\"") ||
			len(got) > MaxNameBytes || strings.HasPrefix(got, ".") {
			t.Fatalf("SafeName(%q) = %q is not safe", in, got)
		}
	})
}
