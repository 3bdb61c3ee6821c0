package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The search's indexes (internal/contactsearch) must not change its answer:
// every page below is compared with what the plain scan answered before
// them, LIKE '%q%' over search_text in the same order, read through ent as
// the administrator; and the set of matches with one computed here from the
// stored fields.

// searchNames cover Unicode case folding (SQLite's own lower() folds ASCII
// only), characters special to LIKE and to FTS5 queries, and a lower-casing
// that changes length (İ).
var searchNames = []string{
	"Ann Lee", "Anna Smith", "JOÃO AÇÃO", "Ação Silva", "Jörg Müller", "Straße Meier", "ΣΊΣΥΦΟΣ Papadopoulos",
	`Dwayne "The Rock" Johnson`, "The Rock Hudson", "Siobhán O'Brien", "100% Real", "a_b Under", "İlker Yılmaz", "Zoë Renée", "Bo",
}

// searchQueries: a common term (more matches than the count window), short
// ones (no trigram), Unicode in both cases, special characters, a phone
// prefix, an identifier, a term across two fields, a miss.
var searchQueries = []string{
	"common.test", "COMMON", "ann", "an", "a", "Ö", "AÇÃO", "ação", "MÜLLER", "STRAßE", "σίσυφος", "ΣΊΣΥΦΟΣ",
	`"the rock"`, `"`, `k"j`, "o'brien", "100%", "a_b", "%", "_", "+4477009", "crm_00", "smith user1", "İLKER", "ilker",
	"zzz none",
}

var searchSorts = []string{"", "name", "-email", "phone_number", "created_at"}

// seedSearchContacts adds n contacts to accountID in bulk: most e-mails on
// one domain, some contacts without activity, many sharing a time (the id
// breaks the tie).
func seedSearchContacts(t *testing.T, a *app, accountID, n int) {
	t.Helper()
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for from := 0; from < n; from += 200 {
		var builders []*ent.ContactCreate
		for i := from; i < min(from+200, n); i++ {
			domain := "common.test"
			if i%12 == 0 {
				domain = "rare.example"
			}
			b := a.srv.DB.Client.Contact.Create().SetAccountID(accountID).
				SetName(searchNames[i%len(searchNames)]).SetEmail(fmt.Sprintf("user%d@%s", i, domain)).
				SetCreatedAt(base.Add(time.Duration(i) * time.Second))
			if i%3 == 0 {
				b.SetPhoneNumber(fmt.Sprintf("+4477009%05d", i))
			}
			if i%5 == 0 {
				b.SetIdentifier(fmt.Sprintf("CRM_%04d", i))
			}
			if i%17 != 0 {
				b.SetLastActivityAt(base.Add(time.Duration(i%50) * time.Minute))
			}
			builders = append(builders, b)
		}
		if err := a.srv.DB.Client.Contact.CreateBulk(builders...).Exec(sys()); err != nil {
			t.Fatalf("seeding contacts: %v", err)
		}
	}
}

func TestContactSearchAnswersAsTheScanDid(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		other, _ := a.otherAccount("Other")
		seedSearchContacts(t, a, a.Account, 1200)
		seedSearchContacts(t, a, other, 60) // the same names: never found, never counted
		admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: a.AdminID, AccountID: a.Account, Role: viewer.RoleAdministrator})
		stored, err := a.srv.DB.Client.Contact.Query().All(admin)
		if err != nil {
			t.Fatal(err)
		}
		if total := matchesOf(stored, "common.test"); total <= contacts.SearchCountWindow {
			t.Fatalf("the common term matches %d contacts: the test needs more than the count window (%d)", total, contacts.SearchCountWindow)
		}
		for _, q := range searchQueries {
			total := matchesOf(stored, q)
			if n, err := scanned(a, q).Count(admin); err != nil || n != total {
				t.Fatalf("q=%q: the scan counts %d (%v), the stored fields say %d", q, n, err, total)
			}
			for _, sort := range searchSorts {
				for _, page := range searchPages(total) {
					checkSearchPage(t, a, admin, q, sort, page, total)
				}
			}
		}
	})
}

// matchesOf counts the contacts whose fields, as search_text joins them,
// contain q ignoring case.
func matchesOf(contacts []*ent.Contact, q string) int {
	q = strings.ToLower(strings.TrimSpace(q))
	n := 0
	for _, c := range contacts {
		text := strings.Join([]string{c.Name, deref(c.Email), deref(c.PhoneNumber), deref(c.Identifier)}, " ")
		if strings.Contains(strings.ToLower(text), q) {
			n++
		}
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// searchPages are the first two pages, the one where the count window ends,
// the last and the one past it.
func searchPages(total int) []int {
	last := max(1, (total+contacts.ContactsPerPage-1)/contacts.ContactsPerPage)
	pages := []int{1, 2, contacts.SearchCountWindow/contacts.ContactsPerPage + 1, last, last + 1}
	slices.Sort(pages)
	return slices.Compact(pages)
}

// scanned is the search as it was: LIKE over search_text.
func scanned(a *app, q string) *ent.ContactQuery {
	return a.srv.DB.Client.Contact.Query().Where(contact.SearchTextContains(strings.ToLower(strings.TrimSpace(q))))
}

// scanOrder is the contact order of sort, as the API documents it.
func scanOrder(sort string) []contact.OrderOption {
	if sort == "" {
		sort = "-last_activity_at"
	}
	dir := sql.OrderAsc()
	if strings.HasPrefix(sort, "-") {
		dir = sql.OrderDesc()
	}
	by := map[string]func(...sql.OrderTermOption) contact.OrderOption{
		"name": contact.ByName, "email": contact.ByEmail, "phone_number": contact.ByPhoneNumber,
		"last_activity_at": contact.ByLastActivityAt, "created_at": contact.ByCreatedAt,
	}[strings.TrimPrefix(sort, "-")]
	return []contact.OrderOption{by(dir, sql.OrderNullsLast()), contact.ByID(dir)}
}

// checkSearchPage compares a page of the API's search with the scan's, and
// its meta with the count rule: the matches counted up to the window past
// the page's start, exact below it; has_more exact.
func checkSearchPage(t *testing.T, a *app, admin context.Context, q, sort string, page, total int) {
	t.Helper()
	offset := (page - 1) * contacts.ContactsPerPage
	want, err := scanned(a, q).Order(scanOrder(sort)...).Offset(offset).Limit(contacts.ContactsPerPage).IDs(admin)
	if err != nil {
		t.Fatal(err)
	}
	path := a.path("/contacts/search?q=%s&sort=%s&page=%d", url.QueryEscape(q), sort, page)
	r := a.mustDo(request{method: "GET", path: path}, http.StatusOK)
	got := r.ints(t, "payload.*.id")
	if !slices.Equal(got, want) {
		t.Errorf("q=%q sort=%q page %d: got ids %v, the scan gives %v", q, sort, page, got, want)
	}
	wantCount := min(total, offset+contacts.SearchCountWindow)
	if gotCount := r.int(t, "meta.count"); gotCount != wantCount {
		t.Errorf("q=%q sort=%q page %d: meta.count %d, want %d (%d match)", q, sort, page, gotCount, wantCount, total)
	}
	if hasMore, _ := r.get("meta.has_more"); hasMore != (offset+len(want) < total) {
		t.Errorf("q=%q sort=%q page %d: has_more %v with %d matches", q, sort, page, hasMore, total)
	}
}

// TestContactSearchCountRule: the count stops 1,000 matches past the start
// of the page, and is exact below that, past the last page included.
func TestContactSearchCountRule(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		seedSearchContacts(t, a, a.Account, 1200) // 1,100 on common.test
		search := func(q string, page int) request {
			return request{method: "GET", path: a.path("/contacts/search?q=%s&page=%d", q, page)}
		}
		a.run(t, []scenario{
			{name: "a first page of 1,100 matches counts 1,000", request: search("common.test", 1), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1000, "meta.has_more": true, "payload.#": 15}},
			{name: "page 2 counts 1,015", request: search("common.test", 2), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1015, "meta.has_more": true}},
			{name: "page 8 (from the 106th) reaches the last match: exact", request: search("common.test", 8), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1100, "meta.has_more": true}},
			{name: "the last page is exact and has no more", request: search("common.test", 74), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1100, "meta.has_more": false, "payload.#": 5}},
			{name: "a page past the last is empty and still exact", request: search("common.test", 90), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1100, "meta.has_more": false, "payload.#": 0}},
			{name: "100 matches are counted exactly", request: search("rare.example", 1), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 100, "meta.has_more": true}},
		})
	})
}

// TestContactSearchFollowsChanges: the search index follows a contact's
// changes and deletion at once (on SQLite, triggers keep the FTS table).
func TestContactSearchFollowsChanges(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		id, _ := a.contact(api, H{"name": "Quentin Blake", "email": "quentin@old.test", "identifier": "OLD-1"})
		gone, _ := a.contact(api, H{"name": "Quentin Gone", "email": "gone@old.test"})
		a.mustDo(request{method: "PUT", path: a.path("/contacts/%d", id),
			body: H{"name": "Roald Dahl", "email": "roald@new.test"}}, http.StatusOK)
		a.mustDo(request{method: "DELETE", path: a.path("/contacts/%d", gone)}, http.StatusOK)
		found := func(name, q string, ids ...any) scenario {
			return scenario{name: name, request: request{method: "GET", path: a.path("/contacts/search?q=%s", q)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": sameItems(ids...), "meta.count": len(ids)}}
		}
		a.run(t, []scenario{
			found("the new name is found", "roald", id),
			found("the new e-mail is found", "new.test", id),
			found("the kept identifier is found", "old-1", id),
			found("the old name is not", "quentin", []any{}...),
			found("the old e-mail is not", "quentin@old", []any{}...),
			found("a deleted contact is not", "old.test", []any{}...),
		})
	})
}
