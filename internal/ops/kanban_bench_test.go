package ops_test

// BenchmarkKanbanBoard measures a board of 10,000 cards in 8 stages (1,250
// a stage), on every engine testdb offers:
//
//	go test ./internal/ops/ -run '^$' -bench BenchmarkKanbanBoard -benchtime 200x
//
// move: move_to_stage of a random card to a random stage and position;
// reorder: a reorder of three cards of one stage; stage_page: the first
// page (100 cards) of one stage, as GET /kanban_items?funnel_id&stage_id
// loads it. Each reports p50-ms, p95-ms and ops/s.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

const (
	boardStages        = 8
	boardCardsPerStage = 1_250
)

type boardFixture struct {
	db     *db.DB
	svc    *ops.Service
	ctx    context.Context
	funnel int
	slugs  []string
	cards  []int
}

func BenchmarkKanbanBoard(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		var (
			once sync.Once
			fx   *boardFixture
		)
		fixture := func(sb *testing.B) *boardFixture {
			once.Do(func() { fx = seedBoard(parentScoped{TB: sb, parent: b}, e) })
			if fx == nil {
				sb.Fatal("seeding failed")
			}
			return fx
		}
		b.Run(e.Name+"/move", func(sb *testing.B) {
			fx := fixture(sb)
			rng := rand.New(rand.NewPCG(1, 2))
			timeOps(sb, func() error {
				slug := fx.slugs[rng.IntN(len(fx.slugs))]
				pos := rng.IntN(boardCardsPerStage)
				_, err := fx.svc.MoveCard(fx.ctx, fx.cards[rng.IntN(len(fx.cards))], kanban.MoveInput{Stage: &slug, Position: &pos})
				return err
			})
		})
		b.Run(e.Name+"/reorder", func(sb *testing.B) {
			fx := fixture(sb)
			rng := rand.New(rand.NewPCG(3, 4))
			timeOps(sb, func() error {
				page, err := fx.svc.Cards(fx.ctx, kanban.CardFilter{FunnelID: fx.funnel, Stage: fx.slugs[rng.IntN(len(fx.slugs))], PerPage: 50})
				if err != nil {
					return err
				}
				var entries []kanban.ReorderEntry
				for i, j := range rng.Perm(len(page.Items))[:3] {
					entries = append(entries, kanban.ReorderEntry{ID: page.Items[j].ID, Position: rng.IntN(boardCardsPerStage) + i})
				}
				_, err = fx.svc.ReorderCards(fx.ctx, entries)
				return err
			})
		})
		b.Run(e.Name+"/stage_page", func(sb *testing.B) {
			fx := fixture(sb)
			rng := rand.New(rand.NewPCG(5, 6))
			timeOps(sb, func() error {
				p, err := fx.svc.Cards(fx.ctx, kanban.CardFilter{FunnelID: fx.funnel, Stage: fx.slugs[rng.IntN(len(fx.slugs))], Page: 1})
				if err == nil && len(p.Items) != 100 {
					err = fmt.Errorf("first page has %d cards", len(p.Items))
				}
				return err
			})
		})
	}
}

// timeOps runs op b.N times and reports latency percentiles and throughput.
func timeOps(b *testing.B, op func() error) {
	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		latencies = append(latencies, time.Since(t0))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(ms(percentile(latencies, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(latencies, 95)), "p95-ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
}

// seedBoard makes an account, a funnel of 8 stages and 10,000 cards,
// inserted in bulk with their positions.
func seedBoard(t testing.TB, e testdb.Engine) *boardFixture {
	t.Helper()
	started := time.Now()
	database := e.New(t)
	svc := ops.New(database.Client)
	boot, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Board Bench", Email: "bench@board.test", Name: "Bench Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{
		UserID: boot.UserID, AccountID: boot.AccountID, Role: viewer.RoleAdministrator,
	})
	var stages []kanban.StageInput
	for i := 0; i < boardStages; i++ {
		name := fmt.Sprintf("Stage %d", i+1)
		stages = append(stages, kanban.StageInput{Name: &name})
	}
	name := "Pipeline"
	f, err := svc.CreateFunnel(ctx, kanban.FunnelInput{Name: &name, Stages: &stages})
	if err != nil {
		t.Fatalf("funnel: %v", err)
	}
	fx := &boardFixture{db: database, svc: svc, ctx: ctx, funnel: f.ID}
	sys := viewer.SystemContext(context.Background())
	for _, st := range f.Edges.Stages {
		fx.slugs = append(fx.slugs, st.Slug)
		for from := 0; from < boardCardsPerStage; from += searchStmtRows {
			end := min(from+searchStmtRows, boardCardsPerStage)
			builders := make([]*ent.KanbanItemCreate, 0, end-from)
			for pos := from; pos < end; pos++ {
				builders = append(builders, database.Client.KanbanItem.Create().SetAccountID(boot.AccountID).
					SetFunnelID(f.ID).SetStageID(st.ID).SetPosition(int64(pos)).SetTitle(fmt.Sprintf("Card %s-%d", st.Slug, pos)))
			}
			ids, err := database.Client.KanbanItem.CreateBulk(builders...).Save(sys)
			if err != nil {
				t.Fatalf("seeding cards: %v", err)
			}
			for _, it := range ids {
				fx.cards = append(fx.cards, it.ID)
			}
		}
	}
	if e.Name == "postgres" {
		if _, err := database.SQL.Exec("ANALYZE kanban_items"); err != nil {
			t.Fatalf("ANALYZE: %v", err)
		}
	}
	t.Logf("%s: seeded %d cards in %d stages in %s", e.Name, len(fx.cards), boardStages, time.Since(started).Round(time.Millisecond))
	return fx
}
