package db_test

import (
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestForeignKeysHaveAnIndex fails when a foreign key's column begins no
// index of its table. Neither engine makes one for it: deleting the parent
// row (its cascade or SET NULL, or the check that nothing refers to it) then
// reads the whole child table, and so does every lookup of a parent's
// children. An attachment's message and a schedule's conversation went
// without one, and deleting a conversation of 10 messages read 1M
// attachments for each (1.9 s; docs/performance.md). The keys left without
// one are listed with the reason (unindexedForeignKeys).
func TestForeignKeysHaveAnIndex(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		d := e.New(t)
		indexes := tableIndexes(t, d)
		keys := foreignKeys(t, d)
		if len(keys) < 30 {
			t.Fatalf("read %d foreign keys, expected the schema's dozens", len(keys))
		}
		for _, fk := range keys {
			if _, ok := unindexedForeignKeys[fk]; ok || leadsAnIndex(indexes, fk) {
				continue
			}
			t.Errorf("%s.%s refers to another table and begins no index of %s", fk.table, fk.column, fk.table)
		}
	})
}

// foreignKey is a child table's column that refers to a parent row.
type foreignKey struct{ table, column string }

// unindexedForeignKeys are the foreign keys without an index, and why: their
// parents are deleted seldom and by hand, each deletion reads the child
// table once, and no request looks the children up by them.
var unindexedForeignKeys = map[foreignKey]string{
	{"scheduled_messages", "inbox_id"}:         "an inbox's deletion; its conversations' schedules go through their conversation's index",
	{"scheduled_messages", "author_id"}:        "a user's deletion",
	{"conversations", "assignee_id"}:           "a user's deletion; the assignee filter is an account's, through its index",
	{"conversations", "team_id"}:               "a team's deletion; the team filter is an account's, through its index",
	{"account_users", "user_id"}:               "a user's deletion; a user's memberships are few and read once per verified token",
	{"inbox_members", "user_id"}:               "a user's deletion; an agent's inboxes are kept in memory (inboxes.InboxesOf)",
	{"team_members", "user_id"}:                "a user's deletion",
	{"kanban_item_assigned_agents", "user_id"}: "a user's deletion",
	{"access_tokens", "user_id"}:               "a user's deletion; tokens are found by their hash",
	{"access_tokens", "agent_bot_id"}:          "an agent bot's deletion",
	{"inboxes", "agent_bot_id"}:                "an agent bot's deletion; an installation has few inboxes",
	{"console_sessions", "user_id"}:            "a user's deletion; sessions are found by their hash and purged when they expire",
	{"messages", "account_id"}:                 "an account's deletion (the platform API), which deletes its messages through their conversations first",
	{"console_sessions", "account_id"}:         "an account's deletion; see console_sessions.user_id",
}

// leadsAnIndex says whether fk's column is the first key of an index of its
// table that holds every row referring to a parent: a whole index, or a
// partial one of the rows where the column is not NULL.
func leadsAnIndex(indexes []tableIndex, fk foreignKey) bool {
	for _, ix := range indexes {
		if ix.table == fk.table && ix.keys[0] == fk.column && (!ix.partial || ix.where == fk.column+" is not null") {
			return true
		}
	}
	return false
}

func foreignKeys(t *testing.T, d *db.DB) []foreignKey {
	t.Helper()
	q := `SELECT m.tbl_name, fk."from" FROM sqlite_master m, pragma_foreign_key_list(m.tbl_name) fk
		WHERE m.type = 'table' AND fk.seq = 0 ORDER BY 1, 2`
	if d.Dialect == dialect.Postgres {
		q = `SELECT c.relname, a.attname FROM pg_constraint k
			JOIN pg_class c ON c.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
			WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`
	}
	rows, err := d.SQL.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []foreignKey
	for rows.Next() {
		var fk foreignKey
		if err := rows.Scan(&fk.table, &fk.column); err != nil {
			t.Fatal(err)
		}
		fk.column = strings.ToLower(fk.column)
		out = append(out, fk)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
