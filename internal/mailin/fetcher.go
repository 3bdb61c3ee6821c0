package mailin

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/ops"
)

// Defaults of Options.
const (
	DefaultPollInterval = time.Minute
	DefaultBackoff      = 5 * time.Second
	DefaultMaxBackoff   = 5 * time.Minute
	// DefaultFirstSync is how far back the first fetch of a mailbox (or one
	// whose UIDVALIDITY changed) looks: a connected mailbox's years of mail
	// are not imported, yesterday's replies are.
	DefaultFirstSync = 24 * time.Hour
	// commandTimeout bounds one IMAP exchange (a login, a fetch): a server
	// that stops answering is dropped and dialled again after the backoff.
	commandTimeout = 2 * time.Minute
)

// Options tune a Fetcher; zero fields take the defaults.
type Options struct {
	// PollInterval is how often a mailbox is checked when its server has
	// no IDLE (and, as a safety net, when it has), and how often the list
	// of inboxes with IMAP enabled is read again.
	PollInterval time.Duration
	// PollOnly polls even where the server offers IDLE (servers whose
	// IDLE is unreliable).
	PollOnly bool
	// Backoff is the first wait after an error; it doubles up to
	// MaxBackoff while the errors go on.
	Backoff, MaxBackoff time.Duration
	FirstSync           time.Duration
	// LeaseTTL is how long an instance's hold on a mailbox lasts unless
	// renewed (every LeaseTTL/4; the others try as often to take it).
	LeaseTTL time.Duration
	Logger   *slog.Logger
}

// Fetcher keeps one session per e-mail inbox with IMAP enabled. Every
// instance runs one; a lease per inbox in the database lets one instance at
// a time connect to a mailbox (providers limit connections per account),
// and another takes it over when that one stops or dies. The progress is
// shared in the database, and a mail fetched twice anyway (a takeover
// while it was being stored) is stored once: Receive dedupes by its
// Message-ID.
type Fetcher struct {
	svc     *ops.Service
	opts    Options
	holder  string
	log     *slog.Logger
	metrics *metrics
	wg      sync.WaitGroup
	// seen is, per inbox, the highest UID this fetcher has handled.
	seen sync.Map // inbox id → uint32
}

// New returns a fetcher storing mail through svc.
func New(svc *ops.Service, o Options) *Fetcher {
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.MaxBackoff < o.Backoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.Backoff)
	}
	if o.FirstSync <= 0 {
		o.FirstSync = DefaultFirstSync
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = DefaultLeaseTTL
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Fetcher{svc: svc, opts: o, holder: newHolder(), log: o.Logger, metrics: newMetrics()}
}

// Seen is the highest UID of inbox's mailbox this fetcher knows handled:
// stored, found stored or skipped by it, or before the cursor it shares
// with other instances when it found nothing after it.
func (f *Fetcher) Seen(inboxID int) uint32 {
	v, _ := f.seen.Load(inboxID)
	n, _ := v.(uint32)
	return n
}

// Start runs the fetcher until ctx ends; Wait waits for it to stop.
func (f *Fetcher) Start(ctx context.Context) {
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.supervise(ctx)
	}()
}

// Wait waits until every session has ended after Start's context did.
func (f *Fetcher) Wait() { f.wg.Wait() }

// running is a session of one inbox and the settings it was started with.
type running struct {
	settings schematype.IMAPConfig
	cancel   context.CancelFunc
	done     chan struct{}
}

// supervise starts a session per inbox with IMAP enabled, and re-reads the
// inboxes every poll interval: a session whose settings changed is
// restarted, one whose inbox lost them (or was deleted) stopped.
func (f *Fetcher) supervise(ctx context.Context) {
	sessions := map[int]*running{}
	defer func() {
		for _, r := range sessions {
			r.cancel()
			<-r.done
		}
	}()
	tick := time.NewTicker(f.opts.PollInterval)
	defer tick.Stop()
	for {
		if err := f.reconcile(ctx, sessions); err != nil && ctx.Err() == nil {
			f.log.Error("mail fetcher: reading the e-mail inboxes failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (f *Fetcher) reconcile(ctx context.Context, sessions map[int]*running) error {
	ibs, err := f.svc.DB.Inbox.Query().Where(inbox.ChannelTypeEQ(inbox.ChannelTypeEmail)).All(core.AsBackgroundWork(ctx))
	if err != nil {
		return err
	}
	want := map[int]*ent.Inbox{}
	for _, ib := range ibs {
		if cfg := ib.Channel.IMAP; cfg != nil && cfg.Enabled {
			want[ib.ID] = ib
		}
	}
	for id, r := range sessions {
		if ib, ok := want[id]; !ok || *ib.Channel.IMAP != r.settings {
			r.cancel()
			<-r.done
			delete(sessions, id)
		}
	}
	for id, ib := range want {
		if _, ok := sessions[id]; !ok {
			sessions[id] = f.startSession(ctx, ib)
		}
	}
	f.metrics.inboxes.Set(float64(len(sessions)))
	return nil
}

func (f *Fetcher) startSession(ctx context.Context, ib *ent.Inbox) *running {
	ctx, cancel := context.WithCancel(ctx)
	r := &running{settings: *ib.Channel.IMAP, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for ctx.Err() == nil {
			f.whileLeased(ctx, ib, func(ctx context.Context) { f.keepFetching(ctx, ib) })
		}
	}()
	return r
}

// keepFetching runs sessions of ib's mailbox one after the other, waiting
// longer after each failure (and from the start again once a session got
// in).
func (f *Fetcher) keepFetching(ctx context.Context, ib *ent.Inbox) {
	delay := f.opts.Backoff
	for ctx.Err() == nil {
		err := f.session(ctx, ib, func() { delay = f.opts.Backoff })
		if ctx.Err() != nil {
			return
		}
		f.failed(ctx, ib, err, delay)
		if !core.Sleep(ctx, delay) {
			return
		}
		delay = min(2*delay, f.opts.MaxBackoff)
	}
}

// failed makes a session's error visible: in the log, the metrics and the
// mailbox's state row (where the next success clears it).
func (f *Fetcher) failed(ctx context.Context, ib *ent.Inbox, err error, retryIn time.Duration) {
	f.metrics.errors.Inc()
	f.log.Warn("mail fetcher: the session failed; retrying", "inbox_id", ib.ID, "account_id", ib.AccountID,
		"host", ib.Channel.IMAP.Address, "retry_in", retryIn.String(), "err", err)
	if err := f.recordError(ctx, ib.ID, err); err != nil {
		f.log.Error("mail fetcher: recording the error failed", "inbox_id", ib.ID, "err", err)
	}
}

// errorf keeps the session's errors short and free of the settings'
// secrets: the password never reaches an error (only Login gets it).
func errorf(step string, err error) error { return fmt.Errorf("%s: %w", step, err) }
