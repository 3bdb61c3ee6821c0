package core_test

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCacheForgetsWhatChanges: an entry is served until it expires; a
// mutation the cache depends on forgets everything at once (and a read
// that began before it cannot store what it read), one it does not depend
// on forgets nothing, a full cache makes room, another instance's
// announcement forgets everything, and so does a rollback of a change.
func TestCacheForgetsWhatChanges(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	c.Hub = events.NewHub()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c.Clock = func() time.Time { return now }
	cache := core.NewCache[string, int](c, core.CacheOptions{Kind: "test_changed", TTL: time.Minute, Size: 2,
		Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeLabel }})
	ctx := core.AsBackgroundWork(context.Background())
	put := func(k string, v int) {
		_, gen, _ := cache.Get(k)
		cache.Put(k, v, gen)
	}
	has := func(k string) bool { _, _, ok := cache.Get(k); return ok }

	put("a", 1)
	if v, _, ok := cache.Get("a"); !ok || v != 1 {
		t.Fatalf("a fresh entry: %d, %v", v, ok)
	}
	now = now.Add(time.Minute)
	if has("a") {
		t.Fatal("an entry was served past its lifetime")
	}

	put("a", 1)
	_, staleGen, _ := cache.Get("b") // a read of b begins
	c.DB.Account.Create().SetName("Unrelated").SaveX(ctx)
	if !has("a") {
		t.Fatal("a change the cache does not depend on forgot its entries")
	}
	acc := c.DB.Account.Query().FirstX(ctx)
	c.DB.Label.Create().SetAccountID(acc.ID).SetTitle("vip").SaveX(ctx)
	if has("a") {
		t.Fatal("a change the cache depends on left an entry")
	}
	cache.Put("b", 2, staleGen) // the read of b ends
	if has("b") {
		t.Fatal("a read that began before a change stored what it read")
	}

	put("a", 1)
	put("b", 2)
	put("c", 3) // over the size: the live entries go
	if !has("c") || has("a") {
		t.Fatal("a full cache kept its old entries or dropped the new one")
	}

	put("a", 1)
	c.Hub.Deliver(events.Event{AccountID: events.Installation, Kind: "test_changed", Origin: "another instance"})
	if has("a") {
		t.Fatal("another instance's announcement left an entry")
	}

	// A value put inside a transaction after its change does not outlive
	// the change's rollback.
	tx, err := c.DB.Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.Label.Create().SetAccountID(acc.ID).SetTitle("gone").SaveX(ctx)
	put("a", 1)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if has("a") {
		t.Fatal("a value put after a change outlived the change's rollback")
	}
}

// TestCacheAnnouncesATransactionOnce: however many of a transaction's
// writes change what a cache holds, the other instances hear of it once,
// when it commits; a write outside a transaction is announced at once.
func TestCacheAnnouncesATransactionOnce(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	c.Hub = events.NewHub()
	core.NewCache[string, int](c, core.CacheOptions{Kind: "test_changed", TTL: time.Minute, Size: 2,
		Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeLabel }})
	var heard int
	cancel := c.Hub.Listen(events.Installation, func(e events.Event) {
		if e.Kind == "test_changed" {
			heard++
		}
	})
	defer cancel()
	ctx := core.AsBackgroundWork(context.Background())
	acc := c.DB.Account.Create().SetName("Acme").SaveX(ctx)
	cases := []struct {
		name  string
		write func() error
		want  int
	}{
		{"three labels in one transaction", func() error {
			return c.InTx(ctx, func(ctx context.Context, tx *ent.Client) error {
				for _, title := range []string{"a", "b", "c"} {
					if err := tx.Label.Create().SetAccountID(acc.ID).SetTitle(title).Exec(ctx); err != nil {
						return err
					}
				}
				return nil
			})
		}, 1},
		{"two transactions", func() error {
			for _, title := range []string{"d", "e"} {
				if err := c.InTx(ctx, func(ctx context.Context, tx *ent.Client) error {
					return tx.Label.Create().SetAccountID(acc.ID).SetTitle(title).Exec(ctx)
				}); err != nil {
					return err
				}
			}
			return nil
		}, 2},
		{"a label outside a transaction", func() error {
			return c.DB.Label.Create().SetAccountID(acc.ID).SetTitle("f").Exec(ctx)
		}, 1},
	}
	for _, tc := range cases {
		heard = 0
		if err := tc.write(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if heard != tc.want {
			t.Errorf("%s: announced %d times, want %d", tc.name, heard, tc.want)
		}
	}
}
