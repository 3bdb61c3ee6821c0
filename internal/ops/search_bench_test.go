package ops_test

// BenchmarkContactSearch measures contact search (the operation behind
// GET /contacts/search and GraphQL searchContacts) over 100,000 contacts (by
// default) of one account, on every engine testdb offers:
//
//	go test ./internal/ops/ -run '^$' -bench BenchmarkContactSearch -benchtime 200x
//
// It reports the latency percentiles of single searches (p50-ms, p95-ms) and
// their throughput (searches/s), and logs the query plan of the search SQL:
// on PostgreSQL the search must use the pg_trgm indexes (or walk the recent
// activity index for a common term), and the log says plainly when the plan
// scans the contacts table instead. -search-contacts sets the size:
//
//	go test ./internal/ops/ -run '^$' -bench BenchmarkContactSearch -args -search-contacts 1000000

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

// searchContacts is the number of contacts in the searched account.
var searchContacts = flag.Int("search-contacts", 100_000, "contacts in BenchmarkContactSearch's account")

const (
	searchBatchSize = 2_000 // contacts a transaction
	// searchStmtRows is the rows of one INSERT (CreateBulk): modernc's
	// SQLite driver matches parameters to arguments in quadratic time, so
	// 2,000 rows (26,000 parameters) in one statement would spend most of
	// the seeding binding them.
	searchStmtRows = 250
)

// searchQueries rotate through the timed loop: name fragments, e-mail domain
// fragments, phone digit fragments, an identifier, and a miss.
var searchQueries = []string{
	"garc", "smith", "anna", "wil", "lee", "mart", "patel", "kowal",
	"gmail", "outlook.com", "globex", "@yahoo", "acme-corp",
	"415", "4420", "5551", "98765", "+49",
	"crm_0042", "zzyzx",
}

// searchFixture is a seeded database and a member viewer of its account.
type searchFixture struct {
	db  *db.DB
	svc *ops.Service
	ctx context.Context // the account's administrator
	// seqScanPlans counts the sampled PostgreSQL search plans that scan
	// the contacts table sequentially (0 is the goal).
	seqScanPlans int
}

func BenchmarkContactSearch(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		// Seeded on the first run of the sub-benchmark and kept for its
		// later runs (the testing package runs it again with a larger b.N);
		// the database lives as long as the parent benchmark.
		var (
			once sync.Once
			fx   *searchFixture
		)
		b.Run(e.Name, func(sb *testing.B) {
			once.Do(func() {
				fx = seedSearchFixture(parentScoped{TB: sb, parent: b}, e)
				fx.seqScanPlans = explainSearch(sb, fx, e)
			})
			if fx == nil {
				sb.Fatal("seeding failed")
			}
			runSearches(sb, fx)
			if e.Name == "postgres" {
				// In the result line itself, so it cannot go unnoticed.
				sb.ReportMetric(float64(fx.seqScanPlans), "seqscan-plans")
			}
		})
	}
}

// runSearches is the timed loop: one search per iteration, each timed.
func runSearches(b *testing.B, fx *searchFixture) {
	latencies := make([]time.Duration, 0, b.N)
	perQuery := map[string][]time.Duration{}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		q := searchQueries[i%len(searchQueries)]
		t0 := time.Now()
		page, err := fx.svc.SearchContacts(fx.ctx, q, "", 1)
		d := time.Since(t0)
		if err != nil {
			b.Fatalf("search %q: %v", q, err)
		}
		if page.Page != 1 {
			b.Fatalf("search %q: page %d", q, page.Page)
		}
		latencies = append(latencies, d)
		perQuery[q] = append(perQuery[q], d)
	}
	elapsed := time.Since(start)
	b.StopTimer()

	slices.Sort(latencies)
	b.ReportMetric(ms(percentile(latencies, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(latencies, 95)), "p95-ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "searches/s")
	if b.N >= len(searchQueries) {
		var sb strings.Builder
		fmt.Fprintf(&sb, "median latency per query over %d searches:\n", b.N)
		for _, q := range searchQueries {
			l := slices.Clone(perQuery[q])
			slices.Sort(l)
			fmt.Fprintf(&sb, "  %-12q %8.2f ms (max %.2f ms)\n", q, ms(percentile(l, 50)), ms(l[len(l)-1]))
		}
		b.Log(sb.String())
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	if rank < 1 {
		rank = 1
	}
	return sorted[rank-1]
}
