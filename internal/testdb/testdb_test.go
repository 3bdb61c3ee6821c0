package testdb_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func TestNewIsEmptyAndIndependent(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := viewer.SystemContext(context.Background())
		a, b := e.New(t), e.New(t)
		if n := a.Client.Account.Query().CountX(ctx); n != 0 {
			t.Fatalf("fresh database has %d accounts, want 0", n)
		}
		if _, err := a.Client.Account.Create().SetName("a").Save(ctx); err != nil {
			t.Fatal(err)
		}
		if n := a.Client.Account.Query().CountX(ctx); n != 1 {
			t.Fatalf("after create: %d accounts, want 1", n)
		}
		if n := b.Client.Account.Query().CountX(ctx); n != 0 {
			t.Fatalf("second database sees %d accounts, want 0", n)
		}
	})
}

func TestNewURLIsMigrated(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		// The URL is what a subprocess would get; open it as one would.
		d := openURL(t, e.NewURL(t))
		ctx := viewer.SystemContext(context.Background())
		if _, err := d.Client.Account.Create().SetName("a").Save(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// Tests elsewhere run in parallel; on PostgreSQL that means concurrent
// CREATE DATABASE from the one template.
func TestNewInParallel(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for i := range 8 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				ctx := viewer.SystemContext(context.Background())
				d := e.New(t)
				if _, err := d.Client.Account.Create().SetName("a").Save(ctx); err != nil {
					t.Fatal(err)
				}
				if n := d.Client.Account.Query().CountX(ctx); n != 1 {
					t.Fatalf("%d accounts, want 1", n)
				}
			})
		}
	})
}

func TestEnginesAlwaysIncludesSQLite(t *testing.T) {
	engines := testdb.Engines(t)
	if len(engines) == 0 || engines[0].Name != "sqlite" {
		t.Fatalf("Engines = %v, want sqlite first", engines)
	}
	for _, e := range engines {
		t.Logf("engine: %s", e.Name)
	}
}

func openURL(t *testing.T, u string) *db.DB {
	t.Helper()
	d, err := db.Open(u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
