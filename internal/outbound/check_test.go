package outbound

import (
	"errors"
	"testing"
)

func TestCheckURL(t *testing.T) {
	t.Cleanup(SetAllowPrivate(false))
	cases := []struct {
		url  string
		want error
	}{
		{"https://hooks.example.com/in", nil},
		{"http://hooks.example.com:8080/in?x=1", nil},
		{"https://8.8.8.8/hook", nil},
		{"https://[2001:4860:4860::8888]/hook", nil},
		{"https://ex4mple.io./hook", nil},
		{"https://1password.com/", nil},
		{"ftp://hooks.example.com", ErrNotHTTP},
		{"hooks.example.com/in", ErrNotHTTP},
		{"https://", ErrNotHTTP},
		{"https:///path", ErrNotHTTP},
		{"mailto:a@b.c", ErrNotHTTP},
		{"javascript:alert(1)", ErrNotHTTP},
		{"http://localhost/", ErrForbiddenAddress},
		{"http://LOCALHOST:3000/", ErrForbiddenAddress},
		{"http://localhost./", ErrForbiddenAddress},
		{"http://api.localhost/", ErrForbiddenAddress},
		{"http://127.0.0.1:8080/", ErrForbiddenAddress},
		{"http://0.0.0.0/", ErrForbiddenAddress},
		{"http://169.254.169.254/latest/meta-data/", ErrForbiddenAddress},
		{"http://100.100.100.200/", ErrForbiddenAddress},
		{"http://10.0.0.5/", ErrForbiddenAddress},
		{"http://[::1]/", ErrForbiddenAddress},
		{"http://[::ffff:127.0.0.1]/", ErrForbiddenAddress},
		{"http://[64:ff9b::a9fe:a9fe]/", ErrForbiddenAddress},
		{"http://[2002:7f00:1::1]/", ErrForbiddenAddress},
		{"http://[fe80::1%25eth0]/", ErrForbiddenAddress},
		{"http://[fd00::1]/", ErrForbiddenAddress},
		{"http://2130706433/", ErrForbiddenAddress},
		{"http://0x7f.1/", ErrForbiddenAddress},
		{"http://127.1/", ErrForbiddenAddress},
		{"http://0177.0.0.1/", ErrForbiddenAddress},
		{"http://user:pw@127.0.0.1/", ErrForbiddenAddress},
	}
	for _, c := range cases {
		if err := CheckURL(c.url); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("CheckURL(%q) = %v, want %v", c.url, err, c.want)
		}
	}
	for host, want := range map[string]error{
		"smtp.example.com": nil, "8.8.8.8": nil, "localhost": ErrForbiddenAddress, "127.0.0.1": ErrForbiddenAddress,
		"::1": ErrForbiddenAddress, "127.0.0.1:25": ErrForbiddenAddress, "[::1]:25": ErrForbiddenAddress, "smtp.example.com:25": nil, "[::1]": ErrForbiddenAddress, "192.168.1.10": ErrForbiddenAddress, "": ErrForbiddenAddress,
	} {
		if err := CheckHost(host); !errors.Is(err, want) || (want == nil && err != nil) {
			t.Errorf("CheckHost(%q) = %v, want %v", host, err, want)
		}
	}

	// The opt-out lifts the address checks, not the URL's shape.
	t.Cleanup(SetAllowPrivate(true))
	if err := CheckURL("http://127.0.0.1:8080/"); err != nil {
		t.Errorf("with the opt-out, a loopback URL is refused: %v", err)
	}
	if err := CheckHost("localhost"); err != nil {
		t.Errorf("with the opt-out, localhost is refused: %v", err)
	}
	if err := CheckURL("ftp://127.0.0.1/"); !errors.Is(err, ErrNotHTTP) {
		t.Errorf("with the opt-out, an ftp URL gives %v", err)
	}
}
