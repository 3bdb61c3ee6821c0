package apperr

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lib/pq"
	_ "modernc.org/sqlite"
)

func TestFromRecognisesDatabaseOutages(t *testing.T) {
	refused := refusedDial(t)
	tests := []struct {
		name string
		err  error
		want Kind
	}{
		{"bad connection", fmt.Errorf("ent: querying: %w", driver.ErrBadConn), KindUnavailable},
		{"real refused dial on 127.0.0.1", refused, KindUnavailable},
		{"connection reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, KindUnavailable},
		{"postgres shutting down", &pq.Error{Code: "57P01", Message: "terminating connection due to administrator command"}, KindUnavailable},
		{"postgres starting up", &pq.Error{Code: "57P03"}, KindUnavailable},
		{"postgres connection failure", fmt.Errorf("tx: %w", &pq.Error{Code: "08006"}), KindUnavailable},
		{"flattened dial error", errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"), KindUnavailable},
		{"postgres unique violation", &pq.Error{Code: "23505"}, KindInternal},
		{"outbound HTTP call refused", &url.Error{Op: "Post", URL: "http://127.0.0.1:1/hook", Err: refused}, KindInternal},
		{"sqlite busy beyond its timeout", sqliteBusy(t), KindInternal},
		{"plain failure", errors.New("boom"), KindInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := From(tt.err)
			if got.Kind != tt.want {
				t.Fatalf("From(%v).Kind = %d, want %d", tt.err, got.Kind, tt.want)
			}
			if tt.want == KindUnavailable && got.Message != unavailableMessage {
				t.Fatalf("message %q", got.Message)
			}
		})
	}
}

// refusedDial dials a 127.0.0.1 port nothing listens on any more.
func refusedDial(t *testing.T) error {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
		t.Skip("the closed port was reused")
	}
	return err
}

// sqliteBusy takes SQLite's write lock on one connection and asks for it on
// another that will not wait: the real SQLITE_BUSY error.
func sqliteBusy(t *testing.T) error {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "busy.db") + "?_pragma=busy_timeout(0)&_txlock=immediate"
	d, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()
	if _, err := d.ExecContext(ctx, "CREATE TABLE x (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = d.BeginTx(ctx, nil)
	if err == nil {
		t.Fatal("second writer got the lock")
	}
	return err
}
