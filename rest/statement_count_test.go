package rest_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
)

// newCountingApp is newApp over a database whose statements are counted,
// those sent for HTTP requests only.
func newCountingApp(t *testing.T, e testdb.Engine) (*app, *atomic.Int64) {
	t.Helper()
	raw := e.New(t)
	n := &atomic.Int64{}
	counted := stmtcount.Counted(raw, n, true)
	return newAppOn(t, counted, server.Config{Channels: &acceptingChannels{}}), n
}

// statementsOf is the fewest statements rq took over five tries (a request
// that starts background work may still overlap a job's follow-up).
func statementsOf(a *app, n *atomic.Int64, rq request) int64 {
	a.t.Helper()
	return statementsAfter(a, n, rq, func() {})
}

// listStatementsOf is statementsOf for the conversation list, which the
// server gives from memory while nothing it shows changes: before each try
// contact ct is written (uncounted), so each try reads the database.
func listStatementsOf(a *app, n *atomic.Int64, rq request, ct int) int64 {
	a.t.Helper()
	return statementsAfter(a, n, rq, func() {
		if err := a.srv.DB.Client.Contact.UpdateOneID(ct).SetLastActivityAt(time.Now()).Exec(sys()); err != nil {
			a.t.Fatalf("touching contact %d: %v", ct, err)
		}
	})
}

// statementsAfter is the fewest statements rq took over five tries, each
// after prepare (uncounted).
func statementsAfter(a *app, n *atomic.Int64, rq request, prepare func()) int64 {
	a.t.Helper()
	fewest := int64(-1)
	for range 5 {
		prepare()
		before := n.Load()
		a.mustDo(rq, http.StatusOK)
		if d := n.Load() - before; fewest < 0 || d < fewest {
			fewest = d
		}
	}
	return fewest
}

// TestConversationListStatementsDoNotGrowWithRows: the list reads each
// conversation's last message in one statement, so a full page costs what
// a page of two does.
func TestConversationListStatementsDoNotGrowWithRows(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a, n := newCountingApp(t, e)
		ib := a.apiInbox("Support")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		start := func() {
			conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hello"}}, http.StatusOK)
		}
		list := request{method: "GET", path: a.path("/conversations?status=all")}
		for range 2 {
			start()
		}
		few := listStatementsOf(a, n, list, ct)
		for range 23 {
			start()
		}
		many := listStatementsOf(a, n, list, ct)
		r := a.mustDo(list, http.StatusOK)
		if got := len(r.JSON.(map[string]any)["data"].(map[string]any)["payload"].([]any)); got != 25 {
			t.Fatalf("the list holds %d conversations, want 25", got)
		}
		if many != few {
			t.Errorf("listing 25 conversations took %d statements, 2 took %d: a statement per row crept in", many, few)
		}
		t.Logf("%s: GET /conversations takes %d statements", e.Name, many)
	})
}
