package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// An e-mail inbox's IMAP settings (Chatwoot's imap_* keys): created and
// merged like the SMTP ones, the password write-only, enabled settings
// complete, and every refused change a 422 that stores nothing.
func TestInboxChannelIMAPSettings(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		created := a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Mail", "channel": H{
			"type": "email", "email": "mail@acme.test", "imap_enabled": true, "imap_address": "imap.acme.test",
			"imap_login": "mail@acme.test", "imap_password": "imap-password-secret"}}}, http.StatusOK)
		mail := created.int(t, "id")
		plain := a.inbox("Plain", emailChannel("plain@acme.test"))
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		channel := func(id int, settings H) request {
			return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: H{"channel": settings}}
		}
		a.run(t, []scenario{
			{
				name:    "create stores the settings, TLS on by default, and shows the password masked",
				request: show(mail), wantStatus: http.StatusOK, check: a.stored(mail, "imap_password", "imap-password-secret"),
				want: map[string]any{"imap_enabled": true, "imap_address": "imap.acme.test", "imap_port": 0,
					"imap_login": "mail@acme.test", "imap_password": mask, "imap_enable_ssl": true},
			},
			{
				name:    "PATCH port and TLS keeps the password not re-sent",
				request: channel(mail, H{"imap_port": 143, "imap_enable_ssl": false, "imap_password": mask}), wantStatus: http.StatusOK,
				check: a.stored(mail, "imap_password", "imap-password-secret"),
				want:  map[string]any{"imap_port": 143, "imap_enable_ssl": false, "imap_password": mask, "imap_enabled": true},
			},
			{
				name:    "PATCH a new password replaces it and is not echoed",
				request: channel(mail, H{"imap_password": "imap-rotated-secret"}), wantStatus: http.StatusOK,
				want: map[string]any{"imap_password": mask},
				check: func(t *testing.T, r *response) {
					a.stored(mail, "imap_password", "imap-rotated-secret")(t, r)
					bodyLacks("imap-rotated-secret")(t, r)
				},
			},
			invalid("enabling IMAP without address, login and password is 422 naming them",
				channel(plain, H{"imap_enabled": true}), "channel.imap_address", "channel.imap_login", "channel.imap_password"),
			invalid("an IMAP address that is a URL is 422", channel(mail, H{"imap_address": "imaps://imap.acme.test/"}), "channel.imap_address"),
			invalid("an IMAP port out of range is 422", channel(mail, H{"imap_port": 99999}), "channel.imap_port"),
			invalid("an IMAP port that is not a number is 422", channel(mail, H{"imap_port": "imaps"}), "channel.imap_port"),
			invalid("clearing the address of enabled settings is 422", channel(mail, H{"imap_address": ""}), "channel.imap_address"),
			status("an agent's PATCH of IMAP settings is 403", as(agent, channel(mail, H{"imap_password": "agent-guess"})), http.StatusForbidden),
			{
				name:    "disabled settings may stay partial",
				request: channel(plain, H{"imap_enabled": false, "imap_address": "imap.plain.test"}), wantStatus: http.StatusOK,
				want: map[string]any{"imap_enabled": false, "imap_address": "imap.plain.test", "imap_password": ""},
			},
			{
				name: "the refused PATCHes changed nothing", request: show(mail), wantStatus: http.StatusOK,
				check: a.stored(mail, "imap_password", "imap-rotated-secret"),
				want:  map[string]any{"imap_address": "imap.acme.test", "imap_port": 143, "imap_enabled": true},
			},
			{
				name: "an agent's view has no IMAP setting", request: as(agent, show(mail)), wantStatus: http.StatusOK,
				want:  map[string]any{"email": "mail@acme.test", "imap_password": absent, "imap_login": absent},
				check: bodyLacks(`"imap_password"`, "imap-password-secret", "imap-rotated-secret"),
			},
		})
	})
}
