package graph_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/testdb"
)

const createMessageWithFiles = `mutation($conv: Int!, $in: MessageInput!, $files: [Upload!]) {
	createMessage(conversationDisplayID: $conv, input: $in, attachments: $files) { message { id content private status attachments { fileName fileType contentType fileSize dataURL } } userErrors { field message code } }
}`

func TestGraphQLCreateMessageWithUploads(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		const limit = 1024
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}, MaxFileSize: limit})
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 3}, 40)...)
		text := []byte("order 42: two items\n")

		r := a.gqlMultipart("", createMessageWithFiles,
			H{"conv": conv, "in": H{"content": "see attached"}, "files": []any{nil, nil}},
			[]upload{
				{"variables.files.0", "photo.png", "image/png", png},
				{"variables.files.1", "order.txt", "text/plain", text},
			})
		if r.Status != http.StatusOK || len(r.Errors) > 0 {
			t.Fatalf("createMessage with two files: %s", r)
		}
		if got := mustGet(t, r.Data, "createMessage.message.content"); got != "see attached" {
			t.Errorf("createMessage answered content %v", got)
		}
		msgID := atoi(t, mustGet(t, r.Data, "createMessage.message.id"))
		for i, name := range []string{"photo.png", "order.txt"} {
			p := fmt.Sprintf("createMessage.message.attachments.%d.", i)
			if got := mustGet(t, r.Data, p+"fileName"); got != name {
				t.Errorf("GraphQL attachment %d is %v, want %s", i, got, name)
			}
			status, _, body := a.download(mustGet(t, r.Data, p+"dataURL").(string), noToken)
			if want := map[int][]byte{0: png, 1: text}[i]; status != http.StatusOK || !bytes.Equal(body, want) {
				t.Errorf("GraphQL dataURL of %s: %d, %d bytes; want 200 and the uploaded file", name, status, len(body))
			}
		}

		// The files are on the message, as REST lists it.
		list := a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK)
		var msg any
		for _, m := range mustGet(t, list, "payload").([]any) {
			if atoi(t, mustGet(t, m, "id")) == msgID {
				msg = m
			}
		}
		if msg == nil {
			t.Fatalf("message %d is not in the conversation's list: %v", msgID, list)
		}
		atts, _ := mustGet(t, msg, "attachments").([]any)
		if len(atts) != 2 {
			t.Fatalf("the message lists %d attachments, want 2: %v", len(atts), msg)
		}
		want := []struct {
			name, fileType, contentType string
			data                        []byte
		}{{"photo.png", "image", "image/png", png}, {"order.txt", "file", "text/plain", text}}
		for i, w := range want {
			at := atts[i]
			if got := mustGet(t, at, "file_name"); got != w.name {
				t.Errorf("attachment %d is %v, want %s", i, got, w.name)
			}
			if got := mustGet(t, at, "file_type"); got != w.fileType {
				t.Errorf("%s: file_type %v, want %s", w.name, got, w.fileType)
			}
			if got := mustGet(t, at, "content_type"); got != w.contentType {
				t.Errorf("%s: content_type %v, want %s", w.name, got, w.contentType)
			}
			if got := mustGet(t, at, "file_size"); got != float64(len(w.data)) {
				t.Errorf("%s: file_size %v, want %d", w.name, got, len(w.data))
			}
			if got := mustGet(t, at, "message_id"); got != float64(msgID) {
				t.Errorf("%s: message_id %v, want %d", w.name, got, msgID)
			}
			attID := atoi(t, mustGet(t, at, "id"))
			plain := fmt.Sprintf("%s/attachments/%d", base, attID)
			// With the API token.
			status, ctype, body := a.download(plain, "")
			if status != http.StatusOK || !bytes.Equal(body, w.data) || !strings.HasPrefix(ctype, w.contentType) {
				t.Errorf("GET %s with the token: %d %s, %d bytes, want 200 %s with the uploaded bytes", plain, status, ctype, len(body), w.contentType)
			}
			// Without a token nor a signature: refused.
			if status, _, _ := a.download(plain, noToken); status != http.StatusUnauthorized {
				t.Errorf("GET %s without a token: %d, want 401", plain, status)
			}
			// data_url carries a signature that works without the token.
			dataURL, _ := mustGet(t, at, "data_url").(string)
			u, err := url.Parse(dataURL)
			if err != nil || u.Query().Get("sig") == "" {
				t.Fatalf("%s: data_url %q is not a signed URL", w.name, dataURL)
			}
			if status, _, body := a.download(u.RequestURI(), noToken); status != http.StatusOK || !bytes.Equal(body, w.data) {
				t.Errorf("GET data_url without a token: %d, %d bytes, want 200 with the uploaded bytes", status, len(body))
			}
			// Another account's administrator cannot read it with its token.
			_, tokenB := a.otherAccount(fmt.Sprintf("Rival%d", i))
			if status, _, _ := a.download(plain, tokenB); status == http.StatusOK {
				t.Errorf("GET %s with another account's token: 200, want a refusal", plain)
			}
		}

		// A file over the per-file limit is refused and nothing is posted.
		before := len(mustGet(t, a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK), "payload").([]any))
		r = a.gqlMultipart("", createMessageWithFiles,
			H{"conv": conv, "in": H{"content": "too big"}, "files": []any{nil}},
			[]upload{{"variables.files.0", "big.bin", "application/octet-stream", bytes.Repeat([]byte("x"), limit+1)}})
		if r.code() != "INVALID" || !reflect.DeepEqual(r.attrs(), []string{"attachments"}) {
			t.Errorf("a file over the limit: want an INVALID user error on attachments, got %s", r)
		}
		after := len(mustGet(t, a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK), "payload").([]any))
		if after != before {
			t.Errorf("a refused upload still posted a message (%d messages, was %d)", after, before)
		}
	})
}
