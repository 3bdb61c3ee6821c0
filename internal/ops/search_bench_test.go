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
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
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

// ---- seeding ----

// seedSearchFixture makes an account with its administrator (a real member,
// through Bootstrap) and 100,000 contacts in it, inserted in bulk.
func seedSearchFixture(t testing.TB, e testdb.Engine) *searchFixture {
	t.Helper()
	started := time.Now()
	database := e.New(t)
	svc := ops.New(database.Client)
	boot, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Search Bench", Email: "bench@search.test", Name: "Bench Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	// One unrelated account, so tenancy filtering has something to exclude.
	other, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Other", Email: "other@search.test", Name: "Other Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	sys := viewer.SystemContext(context.Background())
	rng := rand.New(rand.NewPCG(42, 2026))
	now := time.Now().UTC()
	insert := func(accountID, from, to int) {
		tx, err := database.Client.Tx(sys)
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
		for start := from; start < to; start += searchStmtRows {
			end := min(start+searchStmtRows, to)
			builders := make([]*ent.ContactCreate, 0, end-start)
			for i := start; i < end; i++ {
				builders = append(builders, fakeContact(tx.Contact.Create(), rng, accountID, i, now))
			}
			if err := tx.Contact.CreateBulk(builders...).Exec(sys); err != nil {
				_ = tx.Rollback()
				t.Fatalf("seeding contacts %d-%d: %v", start, end, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
	for from := 0; from < *searchContacts; from += searchBatchSize {
		insert(boot.AccountID, from, min(from+searchBatchSize, *searchContacts))
	}
	insert(other.AccountID, *searchContacts, *searchContacts+searchBatchSize)
	if database.Dialect == dialect.Postgres {
		// Fresh planner statistics, as autovacuum keeps them in production.
		if _, err := database.SQL.Exec("ANALYZE contacts"); err != nil {
			t.Fatalf("ANALYZE: %v", err)
		}
	}
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{
		UserID: boot.UserID, AccountID: boot.AccountID, Role: viewer.RoleAdministrator,
	})
	// The viewer is a real member: authentication finds it.
	if v, err := svc.ViewerForUser(context.Background(), boot.UserID, boot.AccountID); err != nil || v.Role != viewer.RoleAdministrator {
		t.Fatalf("viewer: %+v %v", v, err)
	}
	n, err := database.Client.Contact.Query().Count(ctx)
	if err != nil || n != *searchContacts {
		t.Fatalf("seeded %d contacts in the account (%v), want %d", n, err, *searchContacts)
	}
	t.Logf("%s: seeded %d contacts (+%d in another account) in %s", e.Name, *searchContacts, searchBatchSize,
		time.Since(started).Round(time.Millisecond))
	return &searchFixture{db: database, svc: svc, ctx: ctx}
}

var (
	firstNames = []string{
		"James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
		"David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen",
		"Anna", "Sofia", "Lucas", "Mateo", "Olivia", "Emma", "Noah", "Liam", "Ava", "Mia",
		"Hiroshi", "Yuki", "Wei", "Li", "Priya", "Arjun", "Fatima", "Omar", "Ahmed", "Aisha",
		"Lukas", "Jonas", "Marta", "Piotr", "Agnieszka", "Ivan", "Olga", "Giulia", "Marco", "Chiara",
		"Zoë", "Renée", "José", "Łukasz", "Søren", "Ines", "Bruno", "Camila", "Diego", "Valentina",
	}
	lastNames = []string{
		"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
		"Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
		"Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
		"Müller", "Schmidt", "Schneider", "Fischer", "Kowalski", "Nowak", "Wiśniewski", "Rossi", "Russo", "Ferrari",
		"Patel", "Sharma", "Singh", "Kumar", "Khan", "Ali", "Tanaka", "Suzuki", "Wang", "Zhang",
		"O'Brien", "Murphy", "Kelly", "Dubois", "Laurent", "Silva", "Santos", "Oliveira", "Novak", "Horvat",
	}
	emailDomains = []string{
		"gmail.com", "gmail.com", "gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com",
		"proton.me", "acme-corp.com", "globex.io", "initech.net", "umbrella.co.uk", "example.org", "web.de",
	}
	phonePrefixes = []string{"+1", "+1", "+1", "+44", "+49", "+55", "+91", "+61", "+33", "+34"}
	cities        = []string{"New York", "London", "Berlin", "São Paulo", "Mumbai", "Sydney", "Paris", "Madrid", "Toronto", "Warsaw"}
	companies     = []string{"Acme Corp", "Globex", "Initech", "Umbrella", "Hooli", "Vehement Capital", "Stark Industries"}
)

// fakeContact fills a contact builder with varied, realistic values. E-mail,
// phone and identifier embed i, so they are unique in the account.
func fakeContact(c *ent.ContactCreate, rng *rand.Rand, accountID, i int, now time.Time) *ent.ContactCreate {
	first := firstNames[rng.IntN(len(firstNames))]
	last := lastNames[rng.IntN(len(lastNames))]
	created := now.Add(-time.Duration(rng.Int64N(int64(2 * 365 * 24 * time.Hour))))
	c.SetAccountID(accountID).
		SetName(first + " " + last).
		SetCreatedAt(created).SetUpdatedAt(created).
		SetLastActivityAt(created.Add(time.Duration(rng.Int64N(int64(now.Sub(created)) + 1))))
	if rng.IntN(10) < 9 { // 90% have an e-mail
		local := strings.ToLower(asciiOnly(first))
		switch rng.IntN(3) {
		case 0:
			local += "." + strings.ToLower(asciiOnly(last))
		case 1:
			local = local[:1] + strings.ToLower(asciiOnly(last))
		}
		c.SetEmail(fmt.Sprintf("%s%d@%s", local, i, emailDomains[rng.IntN(len(emailDomains))]))
	}
	if rng.IntN(100) < 85 { // 85% have a phone number
		// The country prefix, three random digits, then i: unique, and as
		// long as real numbers (a prefix of another length gives another
		// length, so no two can collide).
		c.SetPhoneNumber(fmt.Sprintf("%s%03d%07d", phonePrefixes[rng.IntN(len(phonePrefixes))], 200+rng.IntN(800), i))
	}
	if rng.IntN(10) < 4 { // 40% come from a CRM
		c.SetIdentifier(fmt.Sprintf("crm_%07d", i))
	}
	if rng.IntN(2) == 0 {
		c.SetAdditionalAttributes(map[string]any{
			"city": cities[rng.IntN(len(cities))], "company_name": companies[rng.IntN(len(companies))],
		})
	}
	return c
}

// asciiFold spells the accented letters of the names above in ASCII, as
// e-mail local parts usually are.
var asciiFold = map[rune]string{'ü': "u", 'ö': "o", 'ó': "o", 'ø': "o", 'ë': "e", 'é': "e", 'è': "e", 'ś': "s", 'Ł': "L", 'ł': "l"}

func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		default:
			b.WriteString(asciiFold[r]) // apostrophes and the like drop out
		}
	}
	return b.String()
}

// parentScoped lends the parent benchmark's lifetime to a fixture made while
// a sub-benchmark runs: the testing package runs a sub-benchmark's cleanups
// after each of its runs, which would drop the seeded database between the
// b.N=1 probe and the measured run. Failures while seeding still stop the
// sub-benchmark.
type parentScoped struct {
	testing.TB // the sub-benchmark
	parent     testing.TB
}

func (p parentScoped) Cleanup(f func())                  { p.parent.Cleanup(f) }
func (p parentScoped) TempDir() string                   { return p.parent.TempDir() }
func (p parentScoped) Errorf(format string, args ...any) { p.parent.Errorf(format, args...) } // from cleanups, after the sub-benchmark

// ---- query plans ----

// recorder is a driver that remembers the SQL it runs, so the plan can be
// asked for exactly what the search sends.
type recorder struct {
	dialect.Driver
	mu      sync.Mutex
	queries []recorded
}

type recorded struct {
	query string
	args  []any
}

func (r *recorder) Query(ctx context.Context, query string, args, v any) error {
	r.mu.Lock()
	a, _ := args.([]any)
	r.queries = append(r.queries, recorded{query, slices.Clone(a)})
	r.mu.Unlock()
	return r.Driver.Query(ctx, query, args, v)
}

// explainSearch runs searches through a recording driver and logs the plan
// of their SQL: on PostgreSQL EXPLAIN ANALYZE, on SQLite EXPLAIN QUERY PLAN
// (the FTS5 trigram table, or for a common term the walk of the recent
// activity index). It returns how many of the PostgreSQL plans read most of
// the contacts table sequentially: a Seq Scan that stops early, under the
// LIMIT of the count window, is how a common term is best counted. The
// verdict is logged before the plans: without -v the testing package keeps
// only the first lines of a benchmark's log.
func explainSearch(b *testing.B, fx *searchFixture, e testdb.Engine) (seqScanPlans int) {
	b.Helper()
	rec := &recorder{Driver: entsql.OpenDB(fx.db.Dialect, fx.db.SQL)}
	svc := ops.New(ent.NewClient(ent.Driver(rec)))
	postgres := fx.db.Dialect == dialect.Postgres
	var logs, seqScans, paths []string
	if postgres {
		logs = append(logs, indexList(b, fx.db.SQL))
	}
	// A selective name fragment, a common e-mail domain and phone digits.
	queries := []string{"kowal", "gmail", "98765"}
	for _, q := range queries {
		rec.mu.Lock()
		rec.queries = nil
		rec.mu.Unlock()
		page, err := svc.SearchContacts(fx.ctx, q, "", 1)
		if err != nil {
			b.Fatalf("search %q: %v", q, err)
		}
		var out strings.Builder
		fmt.Fprintf(&out, "%s: plan of search %q (%d matches counted):", e.Name, q, page.Total)
		for _, r := range rec.queries {
			if !strings.Contains(r.query, "LIKE") && !strings.Contains(r.query, "MATCH") {
				continue // the eager load of contact inboxes
			}
			kind := "page query"
			if !strings.Contains(r.query, "ORDER BY") {
				kind = "count query"
			}
			plan := explain(b, fx.db, r)
			fmt.Fprintf(&out, "\n-- %s\n-- args %v\n%s", r.query, r.args, plan)
			if postgres {
				if read := seqScanRows(plan); read > *searchContacts/2 {
					seqScans = append(seqScans, fmt.Sprintf("%q (%s, %d rows read)", q, kind, read))
				}
			} else {
				paths = append(paths, fmt.Sprintf("%q %s: %s", q, kind, sqlitePath(plan)))
			}
		}
		logs = append(logs, out.String())
	}
	switch {
	case !postgres:
		b.Logf("PLAN %s: %s (plans below)", e.Name, strings.Join(paths, "; "))
	case len(seqScans) > 0:
		b.Logf("VERDICT %s: a Seq Scan reads most of contacts in %d of %d plans: %s. Searches must use the trigram index, or stop early (plans below).",
			e.Name, len(seqScans), 2*len(queries), strings.Join(seqScans, ", "))
	default:
		b.Logf("VERDICT %s: no plan reads most of contacts; the searches use indexes or stop early (plans below)", e.Name)
	}
	for _, l := range logs {
		b.Log(l)
	}
	return len(seqScans)
}

// seqScanRows is how many rows a PostgreSQL plan's Seq Scan on contacts
// read (returned plus removed by its filter), 0 without one.
func seqScanRows(plan string) int {
	lines := strings.Split(plan, "\n")
	read := 0
	for i, l := range lines {
		if !strings.Contains(l, "Seq Scan on contacts") {
			continue
		}
		read += planNumber(l, "rows=")
		for _, next := range lines[i+1:] {
			if strings.Contains(next, "->") {
				break
			}
			read += planNumber(next, "Rows Removed by Filter: ")
		}
	}
	return read
}

// planNumber is the last number after key in line, 0 without one.
func planNumber(line, key string) int {
	i := strings.LastIndex(line, key)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range line[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// sqlitePath names what a SQLite plan reads.
func sqlitePath(plan string) string {
	switch {
	case strings.Contains(plan, "VIRTUAL TABLE"):
		return "the FTS5 trigram table"
	case strings.Contains(plan, "USING INDEX contact_account_id_last_activity_at") && !strings.Contains(plan, "TEMP B-TREE"):
		return "the account's contacts in recent-activity order"
	default:
		return "a scan of the account's contacts"
	}
}

func explain(b *testing.B, database *db.DB, r recorded) string {
	b.Helper()
	prefix := "EXPLAIN QUERY PLAN "
	if database.Dialect == dialect.Postgres {
		prefix = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) "
	}
	rows, err := database.SQL.Query(prefix+r.query, r.args...)
	if err != nil {
		b.Fatalf("explain: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatalf("explain: %v", err)
		}
		if len(cols) == 1 { // PostgreSQL: one line of text a row
			lines = append(lines, fmt.Sprint(asString(vals[0])))
		} else { // SQLite: id, parent, notused, detail
			lines = append(lines, fmt.Sprint(asString(vals[len(vals)-1])))
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatalf("explain: %v", err)
	}
	return strings.Join(lines, "\n")
}

func asString(v any) string {
	if raw, ok := v.([]byte); ok {
		return string(raw)
	}
	return fmt.Sprint(v)
}

func indexList(b *testing.B, sqlDB *sql.DB) string {
	b.Helper()
	rows, err := sqlDB.Query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`)
	if err != nil {
		b.Fatalf("listing indexes: %v", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var def string
		if err := rows.Scan(&def); err != nil {
			b.Fatalf("listing indexes: %v", err)
		}
		out = append(out, "  "+def)
	}
	return "indexes of contacts:\n" + strings.Join(out, "\n")
}
