package contactsearch_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/internal/contactsearch"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// firstSearchMigration is the first migration of contact search's indexes:
// a database migrated up to the file before it is one of the version
// before them.
const firstSearchMigration = "_contact_inboxes_by_contact.sql"

// TestMigrateUpFromThePreviousVersion: `migrate up` on a database of the
// version before the search indexes, with contacts in it, indexes them all
// (one written around ent's hook, without search_text, too), and the index
// then follows new contacts.
func TestMigrateUpFromThePreviousVersion(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		ctx := context.Background()
		d, err := db.Open(e.NewEmptyURL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		all, err := d.Migrations()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.MigrateUp(ctx, previousVersion(t, all)); err != nil {
			t.Fatalf("migrating to the previous version: %v", err)
		}
		hooked, bare := seedOldContacts(t, d)
		done, err := d.MigrateUp(ctx, all)
		if err != nil || len(done) < 2 || !strings.HasSuffix(done[0], firstSearchMigration) ||
			!strings.HasSuffix(done[1], "_contact_search_index.sql") {
			t.Fatalf("migrate up from the previous version did %q, %v; want the two search migrations first", done, err)
		}
		expectFound(t, d, "ana çelik", hooked)
		expectFound(t, d, "vilela", bare)
		expectFound(t, d, "example.org", bare)
		sys := viewer.SystemContext(ctx)
		added, err := d.Client.Contact.Create().SetAccountID(1).SetName("Added Afterwards").Save(sys)
		if err != nil {
			t.Fatal(err)
		}
		expectFound(t, d, "added after", added.ID)
	})
}

// previousVersion is dir without the search migrations and those after.
func previousVersion(t *testing.T, dir migrate.Dir) migrate.Dir {
	t.Helper()
	files, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(files, func(f migrate.File) bool { return strings.HasSuffix(f.Name(), firstSearchMigration) })
	if i < 0 {
		t.Fatalf("no migration file ends in %s", firstSearchMigration)
	}
	prev := &migrate.MemDir{}
	if err := prev.CopyFiles(files[:i]); err != nil {
		t.Fatal(err)
	}
	return prev
}

// seedOldContacts writes with plain SQL, as the previous version's schema
// stands: a contact as ent's hook left it, and one written around the hook.
func seedOldContacts(t *testing.T, d *db.DB) (hooked, bare int) {
	t.Helper()
	now := "CURRENT_TIMESTAMP"
	stmts := []string{
		`INSERT INTO accounts (id, created_at, updated_at, name) VALUES (1, ` + now + `, ` + now + `, 'Old')`,
		`INSERT INTO contacts (id, created_at, updated_at, name, email, additional_attributes, custom_attributes, labels, search_text, account_id)
		VALUES (1, ` + now + `, ` + now + `, 'Ana Çelik', 'ana@example.com', '{}', '{}', '[]', 'ana çelik ana@example.com  ', 1)`,
		`INSERT INTO contacts (id, created_at, updated_at, name, email, additional_attributes, custom_attributes, labels, search_text, account_id)
		VALUES (2, ` + now + `, ` + now + `, 'Bruno VILELA', 'Bruno@Example.ORG', '{}', '{}', '[]', '', 1)`,
	}
	for _, s := range stmts {
		if _, err := d.SQL.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	if d.Dialect == dialect.Postgres {
		// Explicit ids leave the identity sequences behind.
		for _, table := range []string{"accounts", "contacts"} {
			if _, err := d.SQL.Exec(`SELECT setval(pg_get_serial_sequence('` + table + `', 'id'), 10)`); err != nil {
				t.Fatal(err)
			}
		}
	}
	return 1, 2
}

// expectFound checks the contacts the search predicate finds for q.
func expectFound(t *testing.T, d *db.DB, q string, want ...int) {
	t.Helper()
	sys := viewer.SystemContext(context.Background())
	got, err := d.Client.Contact.Query().Where(contactsearch.Match(q, false)).Order(contact.ByID()).IDs(sys)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("searching %q finds %v, want %v", q, got, want)
	}
}
