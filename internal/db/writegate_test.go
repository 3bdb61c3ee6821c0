package db

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestSQLiteWriteGate: SQLite's transactions queue in the gate, which each
// one leaves however it ends (commit, rollback, a begin that failed); a
// transaction whose context ends while it waits gives up without the gate;
// and concurrent writers all get their turn, every write kept.
func TestSQLiteWriteGate(t *testing.T) {
	d, err := Open("sqlite://" + filepath.Join(t.TempDir(), "gate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	if _, err := d.SQL.ExecContext(ctx, "CREATE TABLE n (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	begin := func(ctx context.Context) error {
		tx, err := d.SQL.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO n VALUES (1)"); err != nil {
			return err
		}
		return tx.Commit()
	}
	for _, tc := range []struct {
		name string
		end  func(t *testing.T)
	}{
		{"after a commit", func(t *testing.T) {
			if err := begin(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"after a rollback", func(t *testing.T) {
			tx, err := d.SQL.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
		}},
		{"after a begin whose context had ended", func(t *testing.T) {
			done, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := d.SQL.BeginTx(done, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("begin with an ended context: %v", err)
			}
		}},
		{"after a wait given up while another transaction was open", func(t *testing.T) {
			held, err := d.SQL.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			if err := begin(short); err == nil {
				t.Fatal("a second transaction began while the first was open")
			}
			if err := held.Rollback(); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.end(t)
			quick, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if err := begin(quick); err != nil {
				t.Fatalf("the next transaction: %v", err)
			}
		})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*25)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				errs <- begin(ctx)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM n").Scan(&n); err != nil || n != 5+200 {
		t.Errorf("%d rows (%v), want %d", n, err, 5+200)
	}
}
