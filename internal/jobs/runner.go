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
	"slices"
	"sync"
	"sync/atomic"
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
	// postgresWorkers is how many jobs of a batch run at once on
	// PostgreSQL: a slow receiver must not hold up every delivery behind
	// it. SQLite has one writer; there, concurrent jobs only wait on its
	// lock (10,000 schedules took 108 s on 8 workers, 58 s on one).
	postgresWorkers = 8
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
	// ran counts the jobs this runner has run, per table: with several
	// instances it shows how they split the work.
	ran sync.Map // table → *atomic.Int64
	// alive is when the loop last reported (Unix nanoseconds): readiness
	// tells a stalled runner from an idle one by it.
	alive atomic.Int64
}

// Alive is when the loop last reported: at every pass and after every job.
func (r *Runner) Alive() time.Time { return time.Unix(0, r.alive.Load()) }

func (r *Runner) reportAlive() { r.alive.Store(time.Now().UnixNano()) }

// Ran returns how many jobs of each table this runner has run.
func (r *Runner) Ran() map[string]int64 {
	out := map[string]int64{}
	r.ran.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return out
}

func (r *Runner) count(table string) {
	n, _ := r.ran.LoadOrStore(table, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
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
	r.reportAlive()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.loop(ctx)
	}()
}

// Wait blocks until the loop started by Start has returned.
func (r *Runner) Wait() { r.wg.Wait() }

func (r *Runner) loop(ctx context.Context) {
	for {
		r.reportAlive()
		for r.RunDue(ctx) > 0 && ctx.Err() == nil {
		}
		r.runIdleAutomations(ctx)
		t := time.NewTimer(r.untilNextSchedule(ctx))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-r.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// untilNextSchedule is how long the runner may sleep: until the earliest
// schedule is due (a schedule fires on time, not on the next poll), and no
// longer than the poll interval (work of other instances, retries).
func (r *Runner) untilNextSchedule(ctx context.Context) time.Duration {
	next, ok := r.svc.NextScheduleDue(ctx)
	if !ok {
		return pollInterval
	}
	return min(max(next.Sub(r.now()), 0), pollInterval)
}

// RunDue claims and runs one batch of each kind of due job and returns how
// many it ran.
func (r *Runner) RunDue(ctx context.Context) int {
	n := 0
	// Schedules and automations first: the messages they post are then
	// delivered in the same pass.
	for _, k := range []kind{scheduleKind(r), automationKind(r), messageKind(r), webhookKind(r)} {
		jobs, err := r.claim(ctx, k)
		if err != nil {
			if ctx.Err() == nil {
				slog.Error("claiming jobs", "table", k.table, "err", err)
			}
			continue
		}
		r.runGroups(ctx, k, groupJobs(jobs))
		n += len(jobs)
	}
	return n
}

// job is a claimed row and the group it must keep its order in.
type job struct{ id, group int }

// groupJobs splits claimed jobs by group, each group in claim order.
func groupJobs(jobs []job) [][]int {
	index := map[int]int{}
	var groups [][]int
	for _, j := range jobs {
		i, ok := index[j.group]
		if !ok {
			i = len(groups)
			index[j.group] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], j.id)
	}
	return groups
}

// runGroups runs groups concurrently (up to workers at a time), the jobs of
// one group one after another: two messages of one conversation are
// delivered in the order they were written.
func (r *Runner) runGroups(ctx context.Context, k kind, groups [][]int) {
	workers := 1
	if r.db.Dialect == dialect.Postgres {
		workers = postgresWorkers
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for _, g := range groups {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			for _, id := range g {
				if err := k.run(ctx, id); err != nil && ctx.Err() == nil {
					slog.Error("running job", "table", k.table, "id", id, "err", err)
				}
				r.count(k.table)
				r.reportAlive()
			}
		}()
	}
	wg.Wait()
}

// kind is one table of jobs: rows whose dueColumn is set and past are due.
// Jobs with the same groupColumn value run in order, others concurrently.
type kind struct {
	table, dueColumn, groupColumn, extraWhere string
	run                                       func(ctx context.Context, id int) error
}

// claim moves the due column of up to batchSize due rows a lease ahead and
// returns them. One statement does both, so two runners never claim the
// same row: PostgreSQL skips rows another claim holds, SQLite runs one
// writer at a time.
func (r *Runner) claim(ctx context.Context, k kind) ([]job, error) {
	lock, ph := "", func(i int) string { return "?" }
	if r.db.Dialect == dialect.Postgres {
		lock, ph = " FOR UPDATE SKIP LOCKED", func(i int) string { return fmt.Sprintf("$%d", i) }
	}
	// A row without a group (a webhook to the kanban URL has no
	// subscription) is a group of its own.
	group := "id"
	if k.groupColumn != "" {
		group = fmt.Sprintf("COALESCE(%s, -id)", k.groupColumn)
	}
	now := r.now()
	q := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = %[3]s WHERE id IN (
		SELECT id FROM %[1]s WHERE %[2]s <= %[4]s%[5]s ORDER BY %[2]s, id LIMIT %[6]d%[7]s) RETURNING id, %[8]s`,
		k.table, k.dueColumn, ph(1), ph(2), k.extraWhere, batchSize, lock, group)
	rows, err := r.db.SQL.QueryContext(ctx, q, now.Add(lease), now)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var jobs []job
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.id, &j.group); err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	// RETURNING gives rows in no set order; the claim order is by id.
	slices.SortFunc(jobs, func(a, b job) int { return a.id - b.id })
	return jobs, rows.Err()
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
