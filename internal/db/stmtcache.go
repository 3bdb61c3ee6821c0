package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"reflect"

	"github.com/lib/pq"
)

// Statement cache. modernc's SQLite driver parses and plans every query it
// runs afresh (a burst of background work spent 28 % of its CPU in SQLite's
// parser); a statement it prepares keeps its plan and is reset, not
// finalized, between runs. lib/pq sends a query with arguments as an unnamed
// statement: parsed and planned by PostgreSQL each time, and a round trip to
// parse before the one to run it; a named statement it has prepared takes one
// round trip and no parse. So each connection keeps the statements it has
// prepared, by their text, and runs a query through one when it is free;
// database/sql hands a connection to one goroutine at a time, and a
// statement whose rows are still open (a query inside another's loop) is
// busy, so that query runs uncached.

// maxCachedStatements bounds a connection's cache; past it each new
// statement takes the place of one cached (ent's statements are a few
// hundred shapes). One at a time: on PostgreSQL closing a statement is a
// round trip, and emptying a full cache at once would stall one query for
// hundreds of them.
const maxCachedStatements = 512

// maxCachedArgs: a statement with more arguments than this is run uncached.
// Those are bulk INSERTs and, on SQLite, IN lists of eager loads and
// batches (PostgreSQL's go as one array: inarray.go), a new text for every
// length, which would only churn the cache.
const maxCachedArgs = 32

// maxCachedQuery bounds the text of a cached statement (long ones are bulk
// inserts whose shape rarely repeats).
const maxCachedQuery = 4096

type cachingConnector struct {
	drv driver.Driver
	dsn string
	// gate queues the transactions of a SQLite database (writegate.go);
	// nil for PostgreSQL.
	gate writeGate
	// arrays sends IN lists of integers as arrays (inarray.go): PostgreSQL.
	arrays bool
}

func (c cachingConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return &cachingConn{Conn: conn, stmts: map[string]*cachedStmt{}, gate: c.gate, arrays: c.arrays}, nil
}

func (c cachingConnector) Driver() driver.Driver { return c.drv }

// The driver's connection must offer these; cachingConn forwards them.
type driverConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type cachingConn struct {
	driver.Conn
	stmts  map[string]*cachedStmt
	gate   writeGate
	arrays bool
}

type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}
	busy bool
	// evicted: dropped from the cache while busy; closed when released.
	evicted bool
}

// release frees s after a run; one evicted meanwhile is closed now.
func (s *cachedStmt) release() {
	s.busy = false
	if s.evicted {
		s.stmt.Close()
	}
}

func (c *cachingConn) inner() driverConn { return c.Conn.(driverConn) }

// statement returns the cached statement for query, preparing it on first
// use; nil when query is not to be cached or its statement is busy, or
// when preparing it failed (then with that error: see uncached).
func (c *cachingConn) statement(ctx context.Context, query string, args int) (*cachedStmt, error) {
	if len(query) > maxCachedQuery || args > maxCachedArgs {
		return nil, nil
	}
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	prepared, err := c.inner().PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := prepared.(interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	})
	if !ok {
		prepared.Close()
		return nil, nil
	}
	if len(c.stmts) >= maxCachedStatements {
		c.evictOne()
	}
	s := &cachedStmt{stmt: st}
	c.stmts[query] = s
	return s, nil
}

// uncached reports the outcome of running a statement without the cache
// after preparing it failed with prepErr (nil: it was not prepared). A
// statement that cannot be prepared may still run (several statements in
// one string, without arguments), so it is run; but on PostgreSQL a failed
// prepare inside a transaction aborts the transaction, and the run then
// fails only with "current transaction is aborted": the prepare's error
// says what was wrong.
func uncached(prepErr, err error) error {
	var pqErr *pq.Error
	if prepErr != nil && errors.As(err, &pqErr) && pqErr.Code == "25P02" { // in_failed_sql_transaction
		return prepErr
	}
	return err
}

// evictOne drops one cached statement (whichever the map yields first).
func (c *cachingConn) evictOne() {
	for q, s := range c.stmts {
		c.drop(q, s)
		return
	}
}

// drop removes query's statement s from the cache and closes it, or, while
// it runs, marks it to be closed when released.
func (c *cachingConn) drop(query string, s *cachedStmt) {
	delete(c.stmts, query)
	if s.busy {
		s.evicted = true
		return
	}
	s.stmt.Close()
}

func (c *cachingConn) closeStatements() {
	for q, s := range c.stmts {
		c.drop(q, s)
	}
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if err := StatementDeadlinePassed(ctx); err != nil {
		return nil, err
	}
	if c.arrays {
		query, args = inArrays(query, args)
	}
	s, prepErr := c.statement(ctx, query, len(args))
	if s == nil {
		res, err := c.inner().ExecContext(ctx, query, args)
		return res, uncached(prepErr, err)
	}
	s.busy = true
	defer s.release()
	return s.stmt.ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if err := StatementDeadlinePassed(ctx); err != nil {
		return nil, err
	}
	if c.arrays {
		query, args = inArrays(query, args)
	}
	s, prepErr := c.statement(ctx, query, len(args))
	if s == nil {
		rows, err := c.inner().QueryContext(ctx, query, args)
		return rows, uncached(prepErr, err)
	}
	s.busy = true
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		s.release()
		return nil, err
	}
	return &cachedRows{Rows: rows, s: s}, nil
}

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := StatementDeadlinePassed(ctx); err != nil {
		return nil, err
	}
	return c.inner().PrepareContext(ctx, query)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := StatementDeadlinePassed(ctx); err != nil {
		return nil, err
	}
	return beginGated(ctx, c.gate, c.inner(), opts)
}

func (c *cachingConn) Ping(ctx context.Context) error { return c.inner().Ping(ctx) }

func (c *cachingConn) ResetSession(ctx context.Context) error { return c.inner().ResetSession(ctx) }

func (c *cachingConn) IsValid() bool { return c.inner().IsValid() }

func (c *cachingConn) Close() error {
	c.closeStatements()
	return c.Conn.Close()
}

// cachedRows frees its statement when closed; it forwards the column type
// information the driver's rows give.
type cachedRows struct {
	driver.Rows
	s *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.s.release()
	return err
}

func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *cachedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}
