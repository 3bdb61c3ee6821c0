package web_test

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// BenchmarkBoardRender: the server's time to render a board of 2,000 cards
// over its two stages (the whole page, as an agent opening it gets it),
// created through the REST API with values, priorities and an assignee.
//
//	go test ./web -run '^$' -bench BenchmarkBoardRender -benchtime 50x
func BenchmarkBoardRender(b *testing.B) {
	const cards = 2000
	for _, e := range testdb.Engines(b) {
		b.Run(e.Name, func(b *testing.B) {
			w := newFanoutWorld(b, e, 1)
			seedCards(b, w, cards-1) // the world has one card already
			url := fmt.Sprintf("%s/app/accounts/%d/funnels/%d/board", w.bases[0], w.account, w.funnel)
			size := 0
			b.ResetTimer()
			for range b.N {
				size = getPage(b, url, w.cookie)
			}
			b.ReportMetric(float64(size)/1024, "page-KiB")
			b.ReportMetric(cards, "cards")
		})
	}
}

// seedCards adds n cards to the world's board, a few requests at a time.
func seedCards(b *testing.B, w *fanoutWorld, n int) {
	b.Helper()
	priorities := []string{"low", "medium", "high", "urgent"}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			stage := "new"
			if i%2 == 1 {
				stage = "won"
			}
			w.post(b, "/kanban_items", map[string]any{"funnel_id": w.funnel, "funnel_stage": stage,
				"item_details": map[string]any{"title": fmt.Sprintf("Deal %d", i), "value": 1000 + i,
					"currency": "EUR", "priority": priorities[i%len(priorities)]}})
		}()
	}
	wg.Wait()
}

// getPage reads a console page as the signed-in user and returns its size.
func getPage(b *testing.B, url, cookie string) int {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Cookie", cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	return len(body)
}
