package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of file responses (issue 10, files): uploads are served as
// downloads unless their type is on the safe inline allow-list, always with
// nosniff and a sandboxing CSP, under a safe file name.

func TestFileResponseHeaders(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		inbox := a.apiInbox("Files")
		contact, _ := a.contact(inbox, H{"name": "Filer"})
		conv := a.conversation(a.Account, inbox, contact)

		cases := []struct {
			upload, contentType string
			wantType            string
			wantDisposition     string // the whole header
		}{
			{"page.html", "text/html", "text/html", `attachment; filename=page.html`},
			{"logo.svg", "image/svg+xml", "image/svg+xml", `attachment; filename=logo.svg`},
			{"photo.png", "image/png", "image/png", `inline; filename=photo.png`},
			{"photo.jpg", "image/jpeg", "image/jpeg", `inline; filename=photo.jpg`},
			{"voice.ogg", "audio/ogg", "audio/ogg", `inline; filename=voice.ogg`},
			{"clip.mp4", "video/mp4", "video/mp4", `inline; filename=clip.mp4`},
			{"doc.pdf", "application/pdf", "application/pdf", `inline; filename=doc.pdf`},
			{"notes.txt", "text/plain; charset=utf-8", "text/plain; charset=utf-8", `attachment; filename=notes.txt`},
			{"data.bin", "not a type", "application/octet-stream", `attachment; filename=data.bin`},
			{"..", "text/plain", "text/plain", `attachment; filename=file`},
			{`..\..\windows\evil.exe`, "application/x-msdownload", "application/x-msdownload", `attachment; filename=evil.exe`},
			{"../../etc/passwd", "text/plain", "text/plain", `attachment; filename=passwd`},
			{"a:b|c?<d>.html", "text/html", "text/html", `attachment; filename=abcd.html`},
			{"relatório.pdf", "application/pdf", "application/pdf", `inline; filename*=utf-8''relat%C3%B3rio.pdf`},
		}
		f := fields("content", "files")
		for _, c := range cases {
			f.file("attachments[]", c.upload, c.contentType, []byte("<script>alert(1)</script>"))
		}
		r := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: f}, http.StatusOK)
		if n := r.int(t, "attachments.#"); n != len(cases) {
			t.Fatalf("want %d attachments, got %d", len(cases), n)
		}
		for i, c := range cases {
			t.Run(fmt.Sprintf("%q as %s", c.upload, c.contentType), func(t *testing.T) {
				u, err := url.Parse(r.str(t, fmt.Sprintf("attachments.%d.data_url", i)))
				if err != nil {
					t.Fatal(err)
				}
				name := r.str(t, fmt.Sprintf("attachments.%d.file_name", i))
				if strings.ContainsAny(name, `/\:|?<>`) || name == ".." {
					t.Errorf("stored file name %q is not a safe base name", name)
				}
				for _, signed := range []bool{true, false} {
					rq := request{method: "GET", path: u.Path, token: noToken}
					if signed {
						rq.path += "?" + u.RawQuery
					} else {
						rq.token = a.Admin
					}
					got := a.do(rq)
					if got.Status != http.StatusOK {
						t.Fatalf("download (signed %v): %s", signed, got)
					}
					want := map[string]string{
						"Content-Type":            c.wantType,
						"Content-Disposition":     c.wantDisposition,
						"X-Content-Type-Options":  "nosniff",
						"Content-Security-Policy": "default-src 'none'; sandbox",
					}
					for h, v := range want {
						if g := got.Header.Get(h); g != v {
							t.Errorf("download (signed %v): %s = %q, want %q", signed, h, g, v)
						}
					}
				}
			})
		}
	})
}
