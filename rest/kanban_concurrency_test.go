package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestKanbanConcurrentMoves has many clients move, reorder, bulk-change and
// carry the same cards between two funnels at once, over HTTP, then checks the board:
// every card in exactly one stage, positions 0..n-1 in every stage, and the
// stage history ending where each card is.
func TestKanbanConcurrentMoves(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		slugs := []string{"s1", "s2", "s3"}
		funnels := []int{a.funnel("Alpha", slugs...), a.funnel("Beta", slugs...)}
		var cards []int
		for i := 0; i < 12; i++ {
			cards = append(cards, a.card(funnels[i%2], slugs[i%3], H{"title": fmt.Sprintf("Card %d", i)}))
		}

		const clients, rounds = 8, 15
		var wg sync.WaitGroup
		failures := make(chan string, clients*rounds)
		for w := 0; w < clients; w++ {
			wg.Add(1)
			go func(seed int64) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(seed))
				for i := 0; i < rounds; i++ {
					method, path, body := randomMove(a, rng, cards, funnels, slugs)
					if status, raw := send(a, method, path, body); status != http.StatusOK {
						failures <- fmt.Sprintf("%s %s %v → %d %s", method, path, body, status, raw)
					}
				}
			}(int64(w + 1))
		}
		wg.Wait()
		close(failures)
		for f := range failures {
			t.Error(f)
		}

		seen := map[int]string{}
		for _, f := range funnels {
			for slug, ids := range board(t, a, f) { // checks 0..n-1 per stage
				for _, id := range ids {
					if where, dup := seen[id]; dup {
						t.Errorf("card %d is in %s and in funnel %d stage %s", id, where, f, slug)
					}
					seen[id] = fmt.Sprintf("funnel %d stage %s", f, slug)
				}
			}
		}
		if len(seen) != len(cards) {
			t.Errorf("the boards hold %d cards, want %d: %v", len(seen), len(cards), seen)
		}
		checkHistoryEndsWhereCardsAre(t, a, cards)
	})
}

// randomMove picks one request of the mix: move_to_stage, move to another
// funnel, a bulk move or bulk priority change, or a reorder of a few cards.
func randomMove(a *app, rng *rand.Rand, cards, funnels []int, slugs []string) (method, path string, body any) {
	card := cards[rng.Intn(len(cards))]
	slug := slugs[rng.Intn(len(slugs))]
	picked := rng.Perm(len(cards))[:3]
	some := []int{cards[picked[0]], cards[picked[1]], cards[picked[2]]}
	switch rng.Intn(5) {
	case 0:
		return "POST", a.path("/kanban_items/%d/move_to_stage", card), H{"funnel_stage": slug, "position": rng.Intn(6)}
	case 1:
		return "POST", a.path("/kanban_items/%d/move", card), H{"funnel_id": funnels[rng.Intn(len(funnels))], "funnel_stage": slug, "position": rng.Intn(6)}
	case 2:
		return "POST", a.path("/kanban_items/bulk_move_items"), H{"item_ids": some, "funnel_stage": slug}
	case 3:
		return "POST", a.path("/kanban_items/bulk_set_priority"), H{"item_ids": some, "priority": []string{"low", "high"}[rng.Intn(2)]}
	}
	var positions []H
	for i, p := range picked {
		positions = append(positions, H{"id": cards[p], "position": i, "funnel_stage": slugs[rng.Intn(len(slugs))]})
	}
	return "POST", a.path("/kanban_items/reorder"), H{"positions": positions}
}

// send is a request safe to make from any goroutine (it never fails a test).
func send(a *app, method, path string, body any) (int, string) {
	raw, _ := json.Marshal(body)
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api_access_token", a.Admin)
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if msg := openAPIMismatch(a.t, a, method, path, res.StatusCode, res.Header, out); msg != "" {
		a.t.Errorf("%s %s: the response does not match the OpenAPI document: %s", method, path, msg)
	}
	return res.StatusCode, string(out)
}

// checkHistoryEndsWhereCardsAre: the last stage recorded for each card is
// its current stage, so reports built from the history agree with the board.
func checkHistoryEndsWhereCardsAre(t *testing.T, a *app, cards []int) {
	t.Helper()
	for _, id := range cards {
		r := a.mustDoT(t, request{method: "GET", path: a.path("/kanban_items/%d", id)}, http.StatusOK)
		hs, err := a.srv.DB.Client.CardStageHistory.Query().
			Where(cardstagehistory.KanbanItemID(id), cardstagehistory.KindIn(cardstagehistory.KindCreated, cardstagehistory.KindStageChanged)).
			All(sys())
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(hs, func(i, j int) bool { return hs[i].ID < hs[j].ID })
		last := hs[len(hs)-1]
		if last.ToStageID == nil || *last.ToStageID != r.int(t, "stage_id") {
			t.Errorf("card %d: history ends in stage %v, the card is in stage %d", id, last.ToStageID, r.int(t, "stage_id"))
		}
		for i := 1; i < len(hs); i++ {
			if hs[i].FromStageID == nil || hs[i-1].ToStageID == nil || *hs[i].FromStageID != *hs[i-1].ToStageID {
				t.Errorf("card %d: history step %d leaves stage %v, but the step before entered %v", id, i, hs[i].FromStageID, hs[i-1].ToStageID)
			}
		}
	}
}
