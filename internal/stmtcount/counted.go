package stmtcount

import (
	"sync/atomic"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/db"
)

// Counted is d with a client that counts in n the statements it sends (with
// requestsOnly, only those sent on behalf of an HTTP request). It shares d's
// connection pool.
func Counted(d *db.DB, n *atomic.Int64, requestsOnly bool) *db.DB {
	c := *d
	c.Client = ent.NewClient(ent.Driver(Driver{Driver: entsql.OpenDB(d.Dialect, d.SQL), N: n, RequestsOnly: requestsOnly}))
	return &c
}
