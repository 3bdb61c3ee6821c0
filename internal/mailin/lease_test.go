package mailin_test

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/switchboard/switchboard/ent/mailboxstate"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/mailin"
	"github.com/switchboard/switchboard/internal/testdb"
)

// leaseTries is how often f tried an inbox's lease with the given outcome
// (taken, refused, lost), read from its metrics.
func leaseTries(t *testing.T, f *mailin.Fetcher, outcome string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(f.Collectors()...)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "switchboard_mail_lease_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// Two instances watch one mailbox: only the one holding the lease
// connects while the other keeps being refused; when the holder stops it
// releases the lease and the other takes the mailbox over, going on from
// the shared progress (every mail stored once).
func TestOneFetcherPerMailboxAcrossInstances(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e, imapPassword)
		w.mailbox.deliver(t, mail("m1@example.test", "Mail 1", "Body 1"))
		w.mailbox.deliver(t, mail("m2@example.test", "Mail 2", "Body 2"))
		// A lease far longer than the test's waits: no takeover by expiry.
		o := mailin.Options{LeaseTTL: 2 * time.Second}
		a, stopA := w.fetcher(t, o)
		b, stopB := w.fetcher(t, o)
		id := w.inbox.ID
		var holder, other *mailin.Fetcher
		apitest.Eventually(t, wait, "one fetcher at the last mail, the other refused twice", func() bool {
			switch {
			case a.Seen(id) == 2 && leaseTries(t, b, "refused") >= 2:
				holder, other = a, b
			case b.Seen(id) == 2 && leaseTries(t, a, "refused") >= 2:
				holder, other = b, a
			}
			return holder != nil
		})
		w.waitMessages(t, 2)
		if n := w.mailbox.connections.Load(); n != 1 || other.Seen(id) != 0 {
			t.Fatalf("%d connections (the waiting fetcher saw uid %d); want 1 from the lease holder", n, other.Seen(id))
		}

		stop := stopA
		if holder == b {
			stop = stopB
		}
		stop()
		w.mailbox.deliver(t, mail("m3@example.test", "Mail 3", "Body 3"))
		apitest.Eventually(t, wait, "the other fetcher at the new mail", func() bool { return other.Seen(id) == 3 })
		w.waitMessages(t, 3)
		if n := w.mailbox.connections.Load(); n != 2 {
			t.Errorf("%d connections, want 2: the holder's, then the one that took over", n)
		}
		if taken := leaseTries(t, other, "taken"); taken != 1 {
			t.Errorf("the other fetcher took the lease %v times, want 1", taken)
		}
	})
}

// A holder that died without releasing its lease (kill -9) keeps the
// mailbox until the lease expires; then a fetcher takes it over.
func TestFetcherTakesAnExpiredLeaseOver(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e, imapPassword)
		w.mailbox.deliver(t, mail("m1@example.test", "Mail 1", "Body 1"))
		expires := time.Now().Add(time.Second).UTC()
		w.svc.DB.MailboxState.Create().SetInboxID(w.inbox.ID).SetLeaseHolder("dead-instance").
			SetLeaseExpiresAt(expires).ExecX(sys())
		f, _ := w.fetcher(t, mailin.Options{LeaseTTL: 400 * time.Millisecond})
		apitest.Eventually(t, wait, "the fetcher refused while the dead lease lasts", func() bool {
			return leaseTries(t, f, "refused") >= 1
		})
		if n := w.mailbox.connections.Load(); n != 0 && time.Now().Before(expires) {
			t.Fatalf("%d connections before the dead holder's lease expired", n)
		}
		w.waitMessages(t, 1)
		if time.Now().Before(expires) {
			t.Errorf("the mail was fetched before the dead holder's lease expired")
		}
		st := w.svc.DB.MailboxState.Query().Where(mailboxstate.InboxID(w.inbox.ID)).OnlyX(sys())
		if st.LeaseHolder == "dead-instance" || st.LeaseHolder == "" {
			t.Errorf("lease holder %q; want the live fetcher", st.LeaseHolder)
		}
		if n := w.mailbox.connections.Load(); n != 1 {
			t.Errorf("%d connections, want 1", n)
		}
	})
}
