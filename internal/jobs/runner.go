// Package jobs runs the durable background work: scheduled messages, kanban
// automation runs, channel deliveries of messages and webhook deliveries.
// Work lives in database rows; a runner claims due rows (FOR UPDATE SKIP
// LOCKED on PostgreSQL), so any number of instances share it without doing
// one row twice at a time, and a crash loses nothing: a claimed row's short
// lease, renewed while its job runs, runs out and the row is due again.
//
// Each claimed job runs on its own goroutine, bounded per kind, and the
// runner claims again as soon as a worker is free: a slow job holds its
// worker and its key (an inbox's channel, a webhook subscription), never the
// others.
package jobs

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound"
)

const batchSize = 32

// claimPause is how long claims of a kind wait after one that came back
// short.
const claimPause = 25 * time.Millisecond

// Options tune a runner; zero fields take the defaults.
type Options struct {
	// Retries are the retry budgets per kind (zero: DefaultRetries).
	Retries Retries
	// Grace is how long running jobs get to finish once the runner's
	// context ends (0: DefaultGrace); the claims of the rest are released.
	Grace time.Duration
	// Lease is how long a claim holds a row without renewal (0:
	// DefaultLease); it is renewed every third of it while the job runs.
	Lease time.Duration
	// IdleCheck is the longest the runner sleeps without a wake (0: one
	// second); each check is one statement.
	IdleCheck time.Duration
	// AttemptRetention is how long the delivery attempt log keeps an
	// attempt (0: DefaultAttemptRetention; negative: forever).
	AttemptRetention time.Duration
	// DeliveryRetention is how long a finished webhook delivery (delivered
	// or failed) stays in its subscription's log after it last changed (0:
	// DefaultDeliveryRetention; negative: forever).
	DeliveryRetention time.Duration
	// FiringBackstop is how late a due schedule gets before instances
	// without the firing turn fire it too (0: DefaultFiringBackstop).
	FiringBackstop time.Duration
}

const (
	// DefaultGrace is how long running jobs get at shutdown.
	DefaultGrace = 10 * time.Second
	// DefaultAttemptRetention is how long an attempt stays in the log.
	DefaultAttemptRetention = 7 * 24 * time.Hour
	// DefaultDeliveryRetention is how long a finished webhook delivery
	// stays in the log: as long as Stripe keeps its events.
	DefaultDeliveryRetention = 30 * 24 * time.Hour
	// DefaultLease: after kill -9 another instance takes the row over
	// within this (plus its poll interval).
	DefaultLease = 15 * time.Second
)

// Runner claims and runs due jobs.
type Runner struct {
	db       *db.DB
	svc      *ops.Service
	http     *http.Client
	channels Channels
	retries  Retries
	grace    time.Duration
	lease    time.Duration
	// idleCheck: see Options.IdleCheck.
	idleCheck time.Duration
	// turn is this instance's turn to fire schedules, and backstop how
	// late they get before it fires them without (firing_turn.go).
	turn     firingTurn
	backstop time.Duration
	now      func() time.Time
	wake     chan struct{}
	// nudge holds the commits' and events' wakes (Nudge).
	nudge chan struct{}
	// commits takes the jobs' records to the committers (commits.go).
	commits    chan commitRequest
	committers int
	// messageLoads and webhookLoads read what deliveries need, for many
	// workers at once (loads.go).
	messageLoads *loadGroup[*delivery.Job]
	webhookLoads *loadGroup[*ent.WebhookDelivery]
	wg           sync.WaitGroup
	// jobs counts the running job goroutines (drain waits for them).
	jobs sync.WaitGroup
	// writes, on SQLite, lets one of the runner's writes run at a time:
	// SQLite has one writer, and writers that collide wait in its busy
	// handler, which sleeps up to 100 ms a turn (90 deliveries took 5 s
	// instead of 0.5 s). Network waits still overlap.
	writes *sync.Mutex
	kinds  []kind
	// inflight holds this runner's claims (see inflight.go).
	inflight *inflight
	// chains order the messages handed to this runner; handoffs numbers
	// the hand-offs' commits (handoff.go).
	chains   *chains
	handoffs atomic.Uint64
	// claimPausedUntil, per kind, holds back claims after a short one
	// (only the loop's goroutine touches it).
	claimPausedUntil []time.Time
	// dueAtPass, per kind (by table), is whether the last pass found rows
	// of the kind due: only then does a worker of the kind that ends wake
	// the loop (wakeIfDue).
	dueAtPass map[string]*atomic.Bool
	// held, per kind, holds claims back after an empty one (holdback.go;
	// only the loop's goroutine touches it).
	held []holdBack
	// lastIdleCheck is when idle kanban automations were last looked at
	// (only the loop's goroutine touches it).
	lastIdleCheck time.Time
	// ran counts the jobs this runner has run, per table: with several
	// instances it shows how they split the work.
	ran sync.Map // table → *atomic.Int64
	// alive is when the loop last reported (Unix nanoseconds): readiness
	// tells a stalled runner from an idle one by it.
	alive   atomic.Int64
	metrics *metrics
	// sweep bounds the delivery logs (sweep.go).
	sweep sweeper
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

// New returns a runner over database; channels deliver messages.
func New(database *db.DB, svc *ops.Service, channels Channels, o Options) *Runner {
	if o.Retries == (Retries{}) {
		o.Retries = DefaultRetries
	}
	if o.Retries.Automations == (Backoff{}) {
		o.Retries.Automations = DefaultRetries.Automations
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.IdleCheck <= 0 {
		o.IdleCheck = idleCheck
	}
	if o.AttemptRetention == 0 {
		o.AttemptRetention = DefaultAttemptRetention
	}
	if o.DeliveryRetention == 0 {
		o.DeliveryRetention = DefaultDeliveryRetention
	}
	if o.FiringBackstop <= 0 {
		o.FiringBackstop = DefaultFiringBackstop
	}
	r := &Runner{
		db:        database,
		svc:       svc,
		retries:   o.Retries,
		grace:     o.Grace,
		lease:     o.Lease,
		idleCheck: o.IdleCheck,
		backstop:  o.FiringBackstop,
		sweep:     sweeper{attempts: o.AttemptRetention, deliveries: o.DeliveryRetention, batch: sweepBatch},
		http:      outbound.NewClient(10 * time.Second),
		channels:  channels,
		now:       func() time.Time { return time.Now().UTC() },
		wake:      make(chan struct{}, 1),
		nudge:     make(chan struct{}, 1),
		commits:   make(chan commitRequest),
		inflight:  newInflight(),
		chains:    newChains(),
	}
	r.metrics = newMetrics(r)
	r.messageLoads = newLoadGroup(&r.jobs, svc.DeliveryJobs)
	r.webhookLoads = newLoadGroup(&r.jobs, r.loadWebhookDeliveries)
	r.committers = postgresCommitters
	if database.Dialect == dialect.Postgres {
		r.turn.db = database.SQL
	} else {
		r.writes = new(sync.Mutex)
		r.committers = 1
	}
	r.kinds = r.allKinds(database.Dialect == dialect.Postgres)
	r.claimPausedUntil = make([]time.Time, len(r.kinds))
	r.dueAtPass = make(map[string]*atomic.Bool, len(r.kinds))
	for _, k := range r.kinds {
		r.dueAtPass[k.table] = new(atomic.Bool)
	}
	r.held = make([]holdBack, len(r.kinds))
	return r
}

// write runs f, alone among the runner's writes on SQLite.
func (r *Runner) write(f func() error) error {
	if r.writes != nil {
		r.writes.Lock()
		defer r.writes.Unlock()
	}
	return f()
}

// writing wraps a job that only works in the database as a write.
func (r *Runner) writing(run func(context.Context, int) error) func(context.Context, int) error {
	return func(ctx context.Context, id int) error { return r.write(func() error { return run(ctx, id) }) }
}

// allKinds lists the kinds in the order a pass claims them: schedules and
// automations first, so the messages they post go out in the same pass.
// Each kind has its own workers, so a hanging receiver never takes the
// workers that fire schedules.
func (r *Runner) allKinds(postgres bool) []kind {
	ks := []kind{scheduleKind(r), automationKind(r), messageKind(r), webhookKind(r)}
	for i := range ks {
		ks[i].workers = ks[i].sqliteWorkers
		if postgres {
			ks[i].workers = ks[i].postgresWorkers
		}
	}
	return ks
}

// Wake tells the runner new work may be due (after a commit, or a worker
// came free): it reads when each kind is next due again.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// WakeOnEvents nudges the runner with every event hub delivers until cancel
// is called: with PostgreSQL's relay, the changes of every instance, so one
// made elsewhere is seen at once rather than at the next idle check.
func (r *Runner) WakeOnEvents(hub *events.Hub) (cancel func()) {
	return hub.ListenAll(func(events.Event) { r.Nudge() })
}

// Start runs the loop until ctx ends, then gives running jobs the grace
// time and releases what is left; Wait waits for all of it.
func (r *Runner) Start(ctx context.Context) {
	r.reportAlive()
	// Jobs run under their own context: at shutdown they get the grace
	// time first.
	jobCtx, cancelJobs := context.WithCancel(context.WithoutCancel(ctx))
	stopRenewing, stopCommits := make(chan struct{}), make(chan struct{})
	r.wg.Add(2 + r.committers)
	go func() {
		defer r.wg.Done()
		r.renewLeases(stopRenewing)
	}()
	for range r.committers {
		go func() {
			defer r.wg.Done()
			r.commitLoop(stopCommits)
		}()
	}
	go func() {
		defer r.wg.Done()
		defer close(stopRenewing)
		r.loop(ctx, jobCtx)
		r.drain(cancelJobs, stopCommits)
	}()
}

// Wait blocks until the runner started by Start has stopped.
func (r *Runner) Wait() { r.wg.Wait() }

// loop runs passes until ctx ends. Between passes it sleeps until the
// earliest due row, a wake, a nudge, or idleCheck, whichever comes first:
// an idle runner costs one statement per idleCheck.
func (r *Runner) loop(ctx, jobCtx context.Context) {
	for {
		r.reportAlive()
		wait := r.pass(ctx, jobCtx)
		r.minutely(ctx)
		if !r.sleep(ctx, wait) {
			return
		}
	}
}

// pass reads when each kind is next due (one statement), claims the kinds
// that are due, and returns how long the loop may sleep.
func (r *Runner) pass(ctx, jobCtx context.Context) time.Duration {
	due, err := r.nextDue(ctx)
	if err != nil {
		if ctx.Err() == nil {
			slog.Error("reading when jobs are due", "err", err)
		}
		return r.idleCheck
	}
	now := r.now()
	// A kind due now may keep due rows after its claims: rows of busy keys,
	// rows behind an earlier one of their order, more rows than free
	// workers. A finishing job wakes the loop for them, or idleCheck.
	waiting := make([]bool, len(r.kinds))
	wait := r.idleCheck
	for i, k := range r.kinds {
		if due[i].IsZero() || due[i].After(now) {
			continue
		}
		waiting[i] = true
		if k.fireDue != nil {
			wait = min(wait, r.startFirings(ctx, jobCtx, k, due[i], now))
			continue
		}
		// After a short claim the due rows left are blocked, and each claim
		// reads past all of them: the next waits a moment (finishing jobs
		// start the waiting ones meanwhile), or a burst's claims cost O(n²).
		if pause := r.claimPausedUntil[i].Sub(now); pause > 0 {
			wait = min(wait, pause)
			continue
		}
		if hold, ok := r.claimHeld(i, k, now); ok {
			wait = min(wait, hold)
			continue
		}
		short, skipped := r.claimAndStart(ctx, jobCtx, k)
		if short {
			r.claimPausedUntil[i] = now.Add(claimPause)
		}
		if skipped != nil {
			r.holdClaims(i, skipped, now)
		}
	}
	for i, k := range r.kinds {
		r.dueAtPass[k.table].Store(waiting[i])
	}
	return min(wait, r.sleepFor(due, waiting))
}

// claimAndStart claims due jobs of k while it has free workers, and starts
// them. It does not wait for them: a finishing job wakes the loop. It
// reports whether the last claim took fewer rows than it asked for: the
// due rows left are blocked (their key or conversation is busy); and, when
// that claim took none while skipping saturated keys, those keys.
func (r *Runner) claimAndStart(ctx, jobCtx context.Context, k kind) (short bool, skipped []int) {
	for ctx.Err() == nil {
		free := r.inflight.free(k)
		if free == 0 {
			return false, nil
		}
		want := min(r.inflight.room(k), batchSize)
		saturated := r.inflight.saturated(k)
		claimed, err := r.claim(ctx, k, want, saturated)
		if err != nil {
			if ctx.Err() == nil {
				slog.Error("claiming jobs", "table", k.table, "err", err)
			}
			return false, nil
		}
		r.startClaimed(jobCtx, k, claimed)
		if len(claimed) == 0 && len(saturated) > 0 {
			return true, saturated
		}
		if len(claimed) < want {
			return true, nil
		}
	}
	return false, nil
}

// client is the ent client jobs use: they act as the system.
func (r *Runner) client() *ent.Client { return r.db.Client }
