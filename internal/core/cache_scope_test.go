package core_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// pageKey is a Scoped key: an entry of one account.
type pageKey struct {
	account int
	name    string
}

func (k pageKey) Scope() int { return k.account }

// TestCacheForgetsOnlyTheAccountWritten: with Scoped keys, a write whose
// account is known (a new row's, or that of the member or account system
// writing) forgets that account's entries and leaves the others', here and
// on the other instances; a write of no known account forgets everything.
// A read of one account that began before another account's change still
// stores what it read; one that began before its own account's does not.
func TestCacheForgetsOnlyTheAccountWritten(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	c.Hub = events.NewHub()
	cache := core.NewScopedCache[pageKey, int](c, core.CacheOptions{Kind: "test_pages", TTL: time.Minute, Size: 10,
		Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeLabel || m.Type() == ent.TypeAccount }})
	var heard []int
	cancel := c.Hub.Listen(events.Installation, func(e events.Event) {
		if e.Kind == "test_pages" {
			heard = append(heard, e.Scope)
		}
	})
	defer cancel()
	sys := core.AsBackgroundWork(context.Background())
	accA, accB := c.DB.Account.Create().SetName("A").SaveX(sys), c.DB.Account.Create().SetName("B").SaveX(sys)
	a, b := pageKey{accA.ID, "page"}, pageKey{accB.ID, "page"}
	labelB := c.DB.Label.Create().SetAccountID(accB.ID).SetTitle("b").SaveX(sys)
	memberOfB := viewer.NewContext(context.Background(), viewer.Viewer{UserID: 1, AccountID: accB.ID, Role: viewer.RoleAdministrator})
	systemOfB := core.AsAccountSystem(context.Background(), accB.ID, 0)

	cases := []struct {
		name       string
		write      func() error
		keptA      bool
		keptB      bool
		announced  []int // the scopes announced to the other instances
		staleReadA bool  // a read of A begun before the write may not store
	}{
		{"a new row of A", func() error {
			return c.DB.Label.Create().SetAccountID(accA.ID).SetTitle("a").Exec(sys)
		}, false, true, []int{accA.ID}, true},
		{"A's own row: its conversation counter", func() error {
			return c.DB.Account.UpdateOne(accA).AddLastConversationDisplayID(1).Exec(sys)
		}, false, true, []int{accA.ID}, true},
		{"a member of B renames B's label", func() error {
			return c.DB.Label.UpdateOne(labelB).SetTitle("b2").Exec(memberOfB)
		}, true, false, []int{accB.ID}, false},
		{"the system acting for B renames it", func() error {
			return c.DB.Label.UpdateOne(labelB).SetTitle("b3").Exec(systemOfB)
		}, true, false, []int{accB.ID}, false},
		{"the installation's system renames it: no account is known", func() error {
			return c.DB.Label.UpdateOne(labelB).SetTitle("b4").Exec(sys)
		}, false, false, []int{0}, true},
		{"one transaction writes in A and B: each is announced", func() error {
			return c.InTx(sys, func(ctx context.Context, tx *ent.Client) error {
				if err := tx.Label.Create().SetAccountID(accA.ID).SetTitle("a2").Exec(ctx); err != nil {
					return err
				}
				return tx.Label.Create().SetAccountID(accB.ID).SetTitle("b5").Exec(ctx)
			})
		}, false, false, []int{accA.ID, accB.ID}, true},
		{"one transaction writes in A and where no account is known", func() error {
			return c.InTx(sys, func(ctx context.Context, tx *ent.Client) error {
				if err := tx.Label.Create().SetAccountID(accA.ID).SetTitle("a3").Exec(ctx); err != nil {
					return err
				}
				return tx.Label.UpdateOne(labelB).SetTitle("b6").Exec(ctx)
			})
		}, false, false, []int{0}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cache.Put(a, 1, genOf(cache, a))
			cache.Put(b, 2, genOf(cache, b))
			staleA := genOf(cache, a) // a read of A begins
			heard = nil
			if err := tc.write(); err != nil {
				t.Fatal(err)
			}
			if _, _, ok := cache.Get(a); ok != tc.keptA {
				t.Errorf("A's entry kept: %v, want %v", ok, tc.keptA)
			}
			if _, _, ok := cache.Get(b); ok != tc.keptB {
				t.Errorf("B's entry kept: %v, want %v", ok, tc.keptB)
			}
			slices.Sort(heard)
			want := slices.Sorted(slices.Values(tc.announced))
			if !slices.Equal(heard, want) {
				t.Errorf("announced %v, want %v", heard, want)
			}
			cache.Invalidate()
			cache.Put(a, 1, staleA) // the read of A ends
			if _, _, ok := cache.Get(a); ok {
				t.Fatal("Invalidate left an entry put with a generation from before it")
			}
		})
	}

	t.Run("a read of A begun before B's change stores what it read", func(t *testing.T) {
		gen := genOf(cache, a)
		if err := c.DB.Label.UpdateOne(labelB).SetTitle("b7").Exec(memberOfB); err != nil {
			t.Fatal(err)
		}
		cache.Put(a, 1, gen)
		if _, _, ok := cache.Get(a); !ok {
			t.Error("B's change kept A's read from being stored")
		}
		gen = genOf(cache, a)
		c.DB.Label.Create().SetAccountID(accA.ID).SetTitle("a4").SaveX(sys)
		cache.Put(a, 1, gen)
		if _, _, ok := cache.Get(a); ok {
			t.Error("a read of A begun before A's change stored what it read")
		}
	})

	t.Run("another instance's announcements", func(t *testing.T) {
		for _, tc := range []struct {
			scope        int
			keptA, keptB bool
		}{{accA.ID, false, true}, {accB.ID, true, false}, {0, false, false}} {
			cache.Put(a, 1, genOf(cache, a))
			cache.Put(b, 2, genOf(cache, b))
			c.Hub.Deliver(events.Event{AccountID: events.Installation, Kind: "test_pages", Origin: "another instance", Scope: tc.scope})
			_, _, okA := cache.Get(a)
			_, _, okB := cache.Get(b)
			if okA != tc.keptA || okB != tc.keptB {
				t.Errorf("scope %d: kept A %v, B %v; want %v, %v", tc.scope, okA, okB, tc.keptA, tc.keptB)
			}
		}
	})
}

// genOf is the generation a read of k starts in.
func genOf(c *core.Cache[pageKey, int], k pageKey) uint64 {
	_, gen, _ := c.Get(k)
	return gen
}
