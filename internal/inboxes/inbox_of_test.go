package inboxes_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// An inbox read by id is read once for every member of its account and the
// system; what the system read is not given to the members; another
// account's member is not given it from memory (and is refused it); a
// write of the inbox is seen by the next read; and an inbox first read
// inside a transaction is still usable after it.
func TestAnInboxIsReadOnceForItsAccount(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		raw := e.New(t)
		n := &atomic.Int64{}
		s := ops.New(stmtcount.Counted(raw, n, false).Client)
		admin, acme := adminOf(t, s, "Acme", "admin@acme.test")
		stranger, _ := adminOf(t, s, "Globex", "admin@globex.test")
		agent := viewer.NewContext(context.Background(), viewer.Viewer{UserID: 99, AccountID: acme, Role: viewer.RoleAgent})
		name := "API"
		created, err := s.CreateInbox(admin, inboxes.InboxInput{Name: &name, Channel: &inboxes.ChannelInput{Type: "api"}})
		if err != nil {
			t.Fatal(err)
		}
		read := func(ctx context.Context) (*ent.Inbox, int64, error) {
			before := n.Load()
			ib, err := s.InboxOf(ctx, s.DB, acme, created.ID)
			return ib, n.Load() - before, err
		}

		for _, step := range []struct {
			who        string
			ctx        context.Context
			statements int64
		}{
			{"the administrator", admin, 1},
			{"an agent", agent, 0},
			{"the system", core.AsBackgroundWork(context.Background()), 0},
		} {
			ib, statements, err := read(step.ctx)
			if err != nil || ib.Name != "API" || statements != step.statements {
				t.Errorf("%s: %v, %v, %d statements; want the inbox, %d statements", step.who, ib, err, statements, step.statements)
			}
		}
		if _, statements, err := read(stranger); err == nil || apperr.From(err).Kind != apperr.KindNotFound || statements != 1 {
			t.Errorf("another account's administrator: %v, %d statements; want not found, read through", err, statements)
		}

		// What the system reads is not kept for the members: it is read past
		// the privacy rules.
		rename := func(name string) {
			t.Helper()
			if _, err := s.UpdateInbox(admin, created.ID, inboxes.InboxInput{Name: &name}); err != nil {
				t.Fatal(err)
			}
		}
		rename("API by the system")
		for _, step := range []struct {
			who string
			ctx context.Context
		}{{"the system", core.AsBackgroundWork(context.Background())}, {"an agent after it", agent}} {
			if ib, statements, err := read(step.ctx); err != nil || ib.Name != "API by the system" || statements != 1 {
				t.Errorf("%s after a rename: %v, %v, %d statements; want the renamed inbox, read", step.who, ib, err, statements)
			}
		}

		renamed := "API v2"
		rename(renamed)
		var inTx *ent.Inbox
		err = s.InTx(agent, func(ctx context.Context, c *ent.Client) (err error) {
			inTx, err = s.InboxOf(ctx, c, acme, created.ID)
			return err
		})
		if err != nil || inTx.Name != renamed {
			t.Fatalf("after a rename, in a transaction: %v, %v", inTx, err)
		}
		ib, statements, err := read(agent)
		if err != nil || ib.Name != renamed || statements != 0 {
			t.Fatalf("after the transaction: %v, %v, %d statements; want the renamed inbox from memory", ib, err, statements)
		}
		if _, err := ib.QueryMembers().All(admin); err != nil {
			t.Errorf("the remembered inbox's members, after its transaction: %v", err)
		}
	})
}

func adminOf(t *testing.T, s *ops.Service, account, email string) (context.Context, int) {
	t.Helper()
	b, err := s.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: account, Email: email, Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	return viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator}), b.AccountID
}
