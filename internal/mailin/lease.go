package mailin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/mailboxstate"
	"github.com/switchboard/switchboard/internal/core"
)

// DefaultLeaseTTL is how long a fetcher's hold on a mailbox lasts unless
// renewed: a fetcher that dies without releasing it (kill -9, a lost
// network) leaves its mailboxes unfetched that long at most, plus one wait
// of the others (LeaseTTL/4).
const DefaultLeaseTTL = 20 * time.Second

// newHolder names this fetcher in the lease rows: the host and process
// help whoever reads the table, the random part keeps two fetchers of one
// process (tests) apart.
func newHolder() string {
	host, _ := os.Hostname()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return clip(host, 120) + "/" + strconv.Itoa(os.Getpid()) + "/" + hex.EncodeToString(b)
}

// takeLease takes (or renews) the inbox's lease for this fetcher: one
// conditional update of its state row, which succeeds only where nobody
// else holds an unexpired lease, so two instances never both get it. A new
// inbox has no state row yet: a refused update makes it, and tries once
// more.
func (f *Fetcher) takeLease(ctx context.Context, inboxID int) (bool, error) {
	ctx = core.AsBackgroundWork(ctx)
	held, err := f.updateLease(ctx, inboxID)
	if held || err != nil {
		return held, err
	}
	made, err := f.ensureState(ctx, inboxID)
	if err != nil {
		return false, errorf("taking the mailbox's lease", err)
	}
	if !made {
		return false, nil
	}
	return f.updateLease(ctx, inboxID)
}

func (f *Fetcher) updateLease(ctx context.Context, inboxID int) (bool, error) {
	now := time.Now().UTC()
	n, err := f.svc.DB.MailboxState.Update().
		Where(mailboxstate.InboxID(inboxID), mailboxstate.Or(
			mailboxstate.LeaseHolder(f.holder), mailboxstate.LeaseHolder(""), mailboxstate.LeaseHolderIsNil(),
			mailboxstate.LeaseExpiresAtIsNil(), mailboxstate.LeaseExpiresAtLT(now))).
		SetLeaseHolder(f.holder).SetLeaseExpiresAt(now.Add(f.opts.LeaseTTL)).Save(ctx)
	if err != nil {
		return false, errorf("taking the mailbox's lease", err)
	}
	return n == 1, nil
}

// releaseLease gives the lease up (if this fetcher still holds it), so
// another instance takes the mailbox over at its next try instead of
// after the expiry.
func (f *Fetcher) releaseLease(ctx context.Context, inboxID int) {
	ctx, cancel := context.WithTimeout(core.AsBackgroundWork(context.WithoutCancel(ctx)), 5*time.Second)
	defer cancel()
	err := f.svc.DB.MailboxState.Update().Where(mailboxstate.InboxID(inboxID), mailboxstate.LeaseHolder(f.holder)).
		SetLeaseHolder("").ClearLeaseExpiresAt().Exec(ctx)
	if err != nil {
		f.log.Warn("mail fetcher: releasing the lease failed; it expires by itself", "inbox_id", inboxID, "err", err)
	}
}

// whileLeased takes ib's lease, waiting LeaseTTL/4 between tries while
// another instance holds it, then runs fetch under a context that ends
// when the lease is lost, renewing it meanwhile; the lease is released
// when fetch returns. It returns when ctx ends or the lease was lost.
func (f *Fetcher) whileLeased(ctx context.Context, ib *ent.Inbox, fetch func(context.Context)) {
	every := f.opts.LeaseTTL / 4
	for {
		held, err := f.takeLease(ctx, ib.ID)
		if held {
			break
		}
		if err != nil && ctx.Err() == nil {
			f.log.Warn("mail fetcher: the lease could not be taken; retrying", "inbox_id", ib.ID, "err", err)
		}
		f.metrics.leases.WithLabelValues("refused").Inc()
		if !core.Sleep(ctx, every) {
			return
		}
	}
	f.metrics.leases.WithLabelValues("taken").Inc()
	f.metrics.held.Inc()
	defer f.metrics.held.Dec()
	defer f.releaseLease(ctx, ib.ID)
	lctx, lost := context.WithCancel(ctx)
	defer lost()
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		f.keepLease(lctx, ib.ID, every, lost)
	}()
	fetch(lctx)
	lost()
	<-renewed
}

// keepLease renews the lease every interval until ctx ends. A renewal
// refused means another instance took the mailbox over: fetching stops.
// Failed renewals are retried until the lease would have expired; then
// fetching stops too, since another instance may have it by now.
func (f *Fetcher) keepLease(ctx context.Context, inboxID int, every time.Duration, lost context.CancelFunc) {
	expires := time.Now().Add(f.opts.LeaseTTL)
	for core.Sleep(ctx, every) {
		held, err := f.takeLease(ctx, inboxID)
		switch {
		case held:
			expires = time.Now().Add(f.opts.LeaseTTL)
			continue
		case ctx.Err() != nil:
			return
		case err == nil:
			f.log.Warn("mail fetcher: another instance took the mailbox over", "inbox_id", inboxID)
		case time.Now().Add(every).Before(expires):
			f.log.Warn("mail fetcher: renewing the lease failed; retrying", "inbox_id", inboxID, "err", err)
			continue
		default:
			f.log.Error("mail fetcher: the lease could not be renewed before it expired", "inbox_id", inboxID, "err", err)
		}
		f.metrics.leases.WithLabelValues("lost").Inc()
		lost()
		return
	}
}

// ensureState makes the inbox's state row if it has none, leaving an
// existing one as it is, and says whether it made it. Two instances may
// race to make it: the loser's unique-key error means the row is there (and
// a foreign-key error means the inbox is gone). It reads first so that a
// refused take does not fail an insert each time, which PostgreSQL would
// log.
func (f *Fetcher) ensureState(ctx context.Context, inboxID int) (bool, error) {
	c := f.svc.DB
	ok, err := c.MailboxState.Query().Where(mailboxstate.InboxID(inboxID)).Exist(ctx)
	if err != nil || ok {
		return false, err
	}
	err = c.MailboxState.Create().SetInboxID(inboxID).Exec(ctx)
	if ent.IsConstraintError(err) {
		return false, nil
	}
	return err == nil, err
}
