package db_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The migration that adds inboxes.channel_key fills it for the inboxes that
// exist: a WhatsApp inbox's number, an API inbox's identifier, a web
// widget's token, and nothing for the other channels.
func TestChannelKeyMigrationFillsExistingInboxes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := context.Background()
		d := testdb.Open(t, e.NewEmptyURL(t))
		files, err := migrations(t, d).Files()
		if err != nil {
			t.Fatal(err)
		}
		at := -1
		for i, f := range files {
			if strings.HasSuffix(f.Name(), "_inbox_channel_key.sql") {
				at = i
			}
		}
		if at < 0 {
			t.Fatal("no inbox_channel_key migration")
		}
		before := &migrate.MemDir{}
		if err := before.CopyFiles(files[:at]); err != nil {
			t.Fatal(err)
		}
		if _, err := d.MigrateUp(ctx, before); err != nil {
			t.Fatal(err)
		}
		now := "2026-01-01 00:00:00"
		q := func(s string) string {
			if e.Name == "postgres" {
				n := 0
				return replaceEach(s, "?", func() string { n++; return "$" + strconv.Itoa(n) })
			}
			return s
		}
		if _, err := d.SQL.ExecContext(ctx, q(`INSERT INTO accounts (id, created_at, updated_at, name) VALUES (1, ?, ?, 'Acme')`), now, now); err != nil {
			t.Fatal(err)
		}
		inboxes := []struct {
			id      int
			typ     string
			channel string
			want    string
		}{
			{1, "whatsapp", `{"phone_number":"+15550001111","provider":"whatsapp_cloud"}`, "+15550001111"},
			{2, "api", `{"inbox_identifier":"abc123","webhook_url":"https://example.com/h"}`, "abc123"},
			{3, "web_widget", `{"website_token":"tok9","website_url":"https://shop.example.com"}`, "tok9"},
			{4, "email", `{"email":"help@acme.test"}`, ""},
			{5, "api", `{}`, ""},
		}
		for _, ib := range inboxes {
			if _, err := d.SQL.ExecContext(ctx, q(`INSERT INTO inboxes (id, created_at, updated_at, name, channel_type, channel, account_id) VALUES (?, ?, ?, 'Inbox', ?, ?, 1)`),
				ib.id, now, now, ib.typ, ib.channel); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.MigrateUp(ctx, migrations(t, d)); err != nil {
			t.Fatal(err)
		}
		for _, ib := range inboxes {
			var got string
			if err := d.SQL.QueryRowContext(ctx, q(`SELECT channel_key FROM inboxes WHERE id = ?`), ib.id).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != ib.want {
				t.Errorf("%s inbox %d: channel_key %q, want %q", ib.typ, ib.id, got, ib.want)
			}
		}
	})
}

// replaceEach replaces every old in s by what next answers, in turn.
func replaceEach(s, old string, next func() string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i] + next())
		s = s[i+len(old):]
	}
}
