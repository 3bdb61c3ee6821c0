package core_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// notifyRig is a Core over a fresh database with a hub subscribed to
// account 1 and a record of what its listeners heard.
type notifyRig struct {
	core  *core.Core
	sub   *events.Subscription
	heard []string
	ctx   context.Context
}

func newNotifyRig(t *testing.T, e testdb.Engine) *notifyRig {
	t.Helper()
	c := core.New(e.New(t).Client)
	c.Hub = events.NewHub()
	r := &notifyRig{core: c, sub: c.Hub.Subscribe(1), ctx: core.AsBackgroundWork(context.Background())}
	t.Cleanup(r.sub.Cancel)
	return r
}

// published drains what the hub has delivered so far without waiting:
// Deliver runs on the committing goroutine, so it is there already.
func (r *notifyRig) published() []events.Kind {
	var got []events.Kind
	for {
		select {
		case e := <-r.sub.Events:
			got = append(got, e.Kind)
		default:
			return got
		}
	}
}

func (r *notifyRig) accounts(t *testing.T) int {
	t.Helper()
	n, err := r.core.DB.Account.Query().Count(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A change reaches the transactional listeners in the order they were
// added, inside its transaction (what they write commits or rolls back with
// it), and the live hub only once the transaction has committed: never
// before, never after a rollback.
func TestNotifyListenersRunInTheTransactionAndLiveAfterCommit(t *testing.T) {
	errAbort := errors.New("abort")
	for _, tc := range []struct {
		name          string
		fnErr         error // what the transaction's function returns after Notify
		wantErr       error
		wantPublished []events.Kind
		wantAccounts  int
	}{
		{name: "commit", wantPublished: []events.Kind{events.ContactCreated}, wantAccounts: 1},
		{name: "rollback", fnErr: errAbort, wantErr: errAbort, wantAccounts: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				r := newNotifyRig(t, e)
				var tx *ent.Tx
				listener := func(name string, write bool) core.Listener {
					return core.ListenerFunc(func(ctx context.Context, c *ent.Client, ch core.Change) error {
						r.heard = append(r.heard, name+":"+string(ch.Kind))
						if got := ent.TxFromContext(ctx); got == nil || got != tx || c != tx.Client() {
							t.Errorf("listener %s ran outside the change's transaction", name)
						}
						if write {
							return c.Account.Create().SetName("written by " + name).Exec(ctx)
						}
						return nil
					})
				}
				r.core.Listen(listener("first", true), listener("second", false))
				err := r.core.InTx(r.ctx, func(ctx context.Context, c *ent.Client) error {
					tx = ent.TxFromContext(ctx)
					if err := r.core.Notify(ctx, c, core.Change{Event: events.Event{AccountID: 1, Kind: events.ContactCreated}}); err != nil {
						return err
					}
					if got := r.published(); len(got) != 0 {
						t.Errorf("published %v before the commit", got)
					}
					return tc.fnErr
				})
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("InTx returned %v, want %v", err, tc.wantErr)
				}
				if want := []string{"first:contact_created", "second:contact_created"}; !reflect.DeepEqual(r.heard, want) {
					t.Errorf("listeners heard %v, want %v", r.heard, want)
				}
				if got := r.published(); !reflect.DeepEqual(got, tc.wantPublished) {
					t.Errorf("after InTx the hub delivered %v, want %v", got, tc.wantPublished)
				}
				if got := r.accounts(t); got != tc.wantAccounts {
					t.Errorf("the listener's write left %d accounts, want %d", got, tc.wantAccounts)
				}
			})
		})
	}
}

// A listener that fails stops the change: the listeners after it do not
// hear of it, Notify returns the error, and nothing is published even if
// the caller commits what it had done before.
func TestNotifyStopsAtAFailingListener(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		r := newNotifyRig(t, e)
		errListener := errors.New("outbox full")
		r.core.Listen(
			core.ListenerFunc(func(context.Context, *ent.Client, core.Change) error {
				r.heard = append(r.heard, "failing")
				return errListener
			}),
			core.ListenerFunc(func(context.Context, *ent.Client, core.Change) error {
				r.heard = append(r.heard, "after")
				return nil
			}),
		)
		var notifyErr error
		err := r.core.InTx(r.ctx, func(ctx context.Context, c *ent.Client) error {
			notifyErr = r.core.Notify(ctx, c, core.Change{Event: events.Event{AccountID: 1, Kind: events.MessageCreated}})
			return nil // the caller ignores it and commits
		})
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(notifyErr, errListener) {
			t.Errorf("Notify returned %v, want %v", notifyErr, errListener)
		}
		if want := []string{"failing"}; !reflect.DeepEqual(r.heard, want) {
			t.Errorf("listeners heard %v, want %v", r.heard, want)
		}
		if got := r.published(); len(got) != 0 {
			t.Errorf("a change whose listener failed was published: %v", got)
		}
	})
}

// Outside a transaction there is nothing to wait for: the change is
// published at once.
func TestNotifyOutsideATransactionPublishesAtOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		r := newNotifyRig(t, e)
		if err := r.core.Notify(r.ctx, r.core.DB, core.Change{Event: events.Event{AccountID: 1, Kind: events.ConversationUpdated}}); err != nil {
			t.Fatal(err)
		}
		if got, want := r.published(), []events.Kind{events.ConversationUpdated}; !reflect.DeepEqual(got, want) {
			t.Errorf("published %v, want %v", got, want)
		}
	})
}

// The webhook body is built once however many listeners ask for it (it
// costs queries), and every listener gets the same body; a change without
// one keeps a nil Payload.
func TestNotifyBuildsThePayloadOnce(t *testing.T) {
	c := core.New(nil) // no transaction and no hub: Notify only calls the listeners
	var got []map[string]any
	asker := core.ListenerFunc(func(_ context.Context, _ *ent.Client, ch core.Change) error {
		if ch.Payload == nil {
			got = append(got, nil)
			return nil
		}
		for range 2 {
			p, err := ch.Payload()
			if err != nil {
				return err
			}
			got = append(got, p)
		}
		return nil
	})
	c.Listen(asker, asker, asker)
	builds := 0
	build := func() (map[string]any, error) {
		builds++
		return map[string]any{"build": builds}, nil
	}
	if err := c.Notify(context.Background(), nil, core.Change{Event: events.Event{AccountID: 1, Kind: events.ContactUpdated}, Payload: build}); err != nil {
		t.Fatal(err)
	}
	if builds != 1 {
		t.Errorf("the payload was built %d times for 3 listeners asking twice each, want 1", builds)
	}
	if len(got) != 6 {
		t.Fatalf("listeners got %d payloads, want 6", len(got))
	}
	for i, p := range got {
		if p["build"] != 1 {
			t.Errorf("payload %d is %v, want the first build's", i, p)
		}
	}

	got = nil
	if err := c.Notify(context.Background(), nil, core.Change{Event: events.Event{AccountID: 1, Kind: events.ScheduledMessageDeleted}}); err != nil {
		t.Fatal(err)
	}
	if want := []map[string]any{nil, nil, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("a change without a body reached listeners as %v, want a nil Payload each", got)
	}
}

// A failing build fails every listener that asks, without a second try.
func TestNotifyPayloadErrorIsKept(t *testing.T) {
	c := core.New(nil)
	errBuild := errors.New("row gone")
	var errs []error
	asker := core.ListenerFunc(func(_ context.Context, _ *ent.Client, ch core.Change) error {
		_, err := ch.Payload()
		errs = append(errs, err)
		return nil
	})
	c.Listen(asker, asker)
	builds := 0
	err := c.Notify(context.Background(), nil, core.Change{Event: events.Event{AccountID: 1, Kind: events.MessageUpdated},
		Payload: func() (map[string]any, error) { builds++; return nil, errBuild }})
	if err != nil {
		t.Fatal(err)
	}
	if builds != 1 || len(errs) != 2 || !errors.Is(errs[0], errBuild) || !errors.Is(errs[1], errBuild) {
		t.Errorf("builds %d, listeners' errors %v; want 1 build and %v twice", builds, errs, errBuild)
	}
}

// The changes of one transaction reach the live hub in the order they were
// made, all at its commit.
func TestNotifyPublishesATransactionsChangesInOrder(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		r := newNotifyRig(t, e)
		kinds := []events.Kind{events.ContactCreated, events.ConversationCreated, events.MessageCreated, events.MessageUpdated}
		err := r.core.InTx(r.ctx, func(ctx context.Context, c *ent.Client) error {
			for _, k := range kinds {
				if err := r.core.Notify(ctx, c, core.Change{Event: events.Event{AccountID: 1, Kind: k}}); err != nil {
					return err
				}
			}
			if got := r.published(); len(got) != 0 {
				t.Errorf("published %v before the commit", got)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.published(); !reflect.DeepEqual(got, kinds) {
			t.Errorf("published %v, want %v", got, kinds)
		}
	})
}
