// Package jobs runs the durable background work: webhook deliveries from the
// outbox and channel deliveries of messages. Work lives in database rows;
// a runner claims due rows (FOR UPDATE SKIP LOCKED on PostgreSQL), so any
// number of instances share it without doing one row twice at a time, and a
// crash loses nothing: a claimed row's lease runs out and it is due again.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound"
)

const (
	// lease is how long a claimed row stays with its runner before another
	// may take it (longer than any one attempt).
	lease = 2 * time.Minute
	// pollInterval bounds how late a runner notices work it was not woken
	// for (another instance's rows, retries coming due).
	pollInterval = 500 * time.Millisecond
	batchSize    = 32
)

// Runner claims and runs due jobs.
type Runner struct {
	db       *db.DB
	svc      *ops.Service
	http     *http.Client
	channels Channels
	retries  Retries
	now      func() time.Time
	wake     chan struct{}
	wg       sync.WaitGroup
	// lastIdleCheck is when idle kanban automations were last looked at
	// (only the loop's goroutine touches it).
	lastIdleCheck time.Time
}

// Retries are the waits between attempts, per kind of job; past the last
// wait a job fails.
type Retries struct {
	Messages []time.Duration
	Webhooks []time.Duration
}

// DefaultRetries: a few message attempts within about a minute (a chat
// message hours late is worse than a visible failure), and webhook attempts
// spread over hours (a receiver that is down for a while still gets them).
var DefaultRetries = Retries{
	Messages: []time.Duration{time.Second, 3 * time.Second, 10 * time.Second, 20 * time.Second, 30 * time.Second},
	Webhooks: []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour},
}

// New returns a runner over database; channels deliver messages.
func New(database *db.DB, svc *ops.Service, channels Channels, retries Retries) *Runner {
	return &Runner{
		db:       database,
		svc:      svc,
		retries:  retries,
		http:     outbound.NewClient(10 * time.Second),
		channels: channels,
		now:      func() time.Time { return time.Now().UTC() },
		wake:     make(chan struct{}, 1),
	}
}

// Wake tells the runner new work may be due (after a commit).
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Start runs the loop until ctx ends; Wait waits for it to finish.
func (r *Runner) Start(ctx context.Context) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.loop(ctx)
	}()
}

// Wait blocks until the loop started by Start has returned.
func (r *Runner) Wait() { r.wg.Wait() }

func (r *Runner) loop(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		for r.RunDue(ctx) > 0 && ctx.Err() == nil {
		}
		r.runIdleAutomations(ctx)
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-t.C:
		}
	}
}

// RunDue claims and runs one batch of each kind of due job and returns how
// many it ran.
func (r *Runner) RunDue(ctx context.Context) int {
	n := 0
	for _, k := range []kind{webhookKind(r), messageKind(r)} {
		ids, err := r.claim(ctx, k)
		if err != nil {
			if ctx.Err() == nil {
				slog.Error("claiming jobs", "table", k.table, "err", err)
			}
			continue
		}
		for _, id := range ids {
			if err := k.run(ctx, id); err != nil && ctx.Err() == nil {
				slog.Error("running job", "table", k.table, "id", id, "err", err)
			}
		}
		n += len(ids)
	}
	return n
}

// kind is one table of jobs: rows whose dueColumn is set and past are due.
type kind struct {
	table, dueColumn, extraWhere string
	run                          func(ctx context.Context, id int) error
}

// claim moves the due column of up to batchSize due rows a lease ahead and
// returns their ids. One statement does both, so two runners never claim
// the same row: PostgreSQL skips rows another claim holds, SQLite runs one
// writer at a time.
func (r *Runner) claim(ctx context.Context, k kind) ([]int, error) {
	lock, ph := "", func(i int) string { return "?" }
	if r.db.Dialect == dialect.Postgres {
		lock, ph = " FOR UPDATE SKIP LOCKED", func(i int) string { return fmt.Sprintf("$%d", i) }
	}
	now := r.now()
	q := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = %[3]s WHERE id IN (
		SELECT id FROM %[1]s WHERE %[2]s <= %[4]s%[5]s ORDER BY %[2]s LIMIT %[6]d%[7]s) RETURNING id`,
		k.table, k.dueColumn, ph(1), ph(2), k.extraWhere, batchSize, lock)
	rows, err := r.db.SQL.QueryContext(ctx, q, now.Add(lease), now)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// client is the ent client jobs use: they act as the system.
func (r *Runner) client() *ent.Client { return r.db.Client }

// backoff returns the wait before attempt n+1 (n ≥ 1), from steps; past the
// last step there is no further attempt.
func backoff(steps []time.Duration, attempts int) (time.Duration, bool) {
	if attempts < 1 || attempts > len(steps) {
		return 0, false
	}
	return steps[attempts-1], true
}
