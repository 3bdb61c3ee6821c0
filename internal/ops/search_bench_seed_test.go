package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

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
