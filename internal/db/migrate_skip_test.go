package db

import (
	"context"
	"path/filepath"
	"testing"
)

// TestAFileAppliedMeanwhileIsSkippedNotApplied: a file another process
// applied between the status read and the transaction is not run again,
// and is not reported as applied by this one (two processes each said
// "applied" for the same file).
func TestAFileAppliedMeanwhileIsSkippedNotApplied(t *testing.T) {
	ctx := context.Background()
	d, err := Open("sqlite://" + filepath.Join(t.TempDir(), "skip.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dir, err := d.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.MigrateUp(ctx, dir); err != nil {
		t.Fatal(err)
	}
	files, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := d.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	last := files[len(files)-1]
	if applied, err := d.apply(ctx, conn, dir, last); err != nil || applied {
		t.Errorf("applying %s again: applied %v, %v; want skipped", last.Name(), applied, err)
	}
}
