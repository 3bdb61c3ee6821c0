package rest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/rest"
)

// Scenario tests of the request body caps (issue 10, abuse limits): every
// body that is not a multipart upload is capped at 1 MiB and answered 413
// in the JSON error shape; multipart bodies keep the attachment limit.

func TestBodyLimits(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newAppWith(t, e, server.Config{BodyLimit: 4 << 20})
		inbox := a.apiInbox("Limits")
		contact, _ := a.contact(inbox, H{"name": "Lim"})
		conv := a.conversation(a.Account, inbox, contact)
		contacts := a.path("/contacts")
		messages := a.path("/conversations/%d/messages", conv)

		// A JSON body of exactly n bytes: {"name":"x…"}.
		jsonOf := func(n int) []byte {
			return []byte(`{"name":"` + strings.Repeat("x", n-len(`{"name":""}`)) + `"}`)
		}
		over := jsonOf(rest.MaxJSONBody + 1)
		file := func(size int) *form {
			return fields("content", "a file").file("attachments[]", "big.bin", "application/octet-stream", bytes.Repeat([]byte{1}, size))
		}
		a.run(t, []scenario{
			status("a JSON body of 1 MiB + 1 byte is 413", request{method: "POST", path: contacts, body: over}, http.StatusRequestEntityTooLarge),
			status("so is one without a content type", request{method: "POST", path: contacts, body: over, contentType: noContentType}, http.StatusRequestEntityTooLarge),
			status("and a url-encoded form", request{method: "POST", path: contacts, body: "name=" + strings.Repeat("x", rest.MaxJSONBody),
				contentType: "application/x-www-form-urlencoded"}, http.StatusRequestEntityTooLarge),
			status("and a GraphQL document", request{method: "POST", path: "/graphql", body: over}, http.StatusRequestEntityTooLarge),
			status("a body of exactly 1 MiB is read (and its name refused as too long)",
				request{method: "POST", path: contacts, body: jsonOf(rest.MaxJSONBody)}, http.StatusUnprocessableEntity),
			status("a compressed body is refused: it would be inflated without a bound",
				request{method: "POST", path: contacts, body: `{"name":"z"}`, header: map[string]string{"Content-Encoding": "gzip"}},
				http.StatusUnsupportedMediaType),
			status("a multipart upload over 1 MiB is accepted", request{method: "POST", path: messages, body: file(2 << 20)}, http.StatusOK),
		})
		t.Run("a multipart upload over the server's limit is 413 in the JSON error shape", func(t *testing.T) {
			r := overLimitUpload(t, a, messages, 5<<20)
			if r.Status != http.StatusRequestEntityTooLarge {
				t.Fatalf("want 413, got %s", r)
			}
			checkErrorBody(t, r, nil)
		})
		n, err := a.srv.DB.Client.Contact.Query().Count(sys())
		if err != nil || n != 1 {
			t.Errorf("refused bodies stored contacts: %d contacts (err %v), want the one seeded", n, err)
		}
		if got, want := rest.BodyLimit(15, 40<<20), 15*40<<20+rest.MaxJSONBody; got != want {
			t.Errorf("BodyLimit(15, 40 MiB) = %d, want %d", got, want)
		}
	})
}

// overLimitUpload announces a multipart body of size bytes to the app
// listening on 127.0.0.1 and reads its answer. (The in-memory app.Test
// returns fasthttp's error instead of the response fasthttp writes, and a
// real client may still be writing the body when the server closes.)
func overLimitUpload(t *testing.T, a *app, path string, size int) *response {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = a.srv.App.Listener(ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\napi_access_token: %s\r\n"+
		"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: %d\r\n\r\n", path, a.Admin, size)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := &response{Status: res.StatusCode, Header: res.Header, Body: raw, req: "POST " + path}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		r.JSON = v
	}
	return r
}
