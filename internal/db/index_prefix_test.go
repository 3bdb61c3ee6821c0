package db_test

import (
	"slices"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestNoIndexIsAPrefixOfAnother fails when the migrations leave an index
// whose keys, in the same order and direction, begin another index of its
// table: the longer one serves every lookup the shorter one does, so the
// shorter one only costs each write (AccountMixin.LedByAccount). Unique and
// partial indexes say more than their keys and are never the redundant one;
// nor is one kept on purpose (keptPrefixes).
func TestNoIndexIsAPrefixOfAnother(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		indexes := tableIndexes(t, e.New(t))
		if len(indexes) < 20 {
			t.Fatalf("read %d indexes, expected the schema's dozens", len(indexes))
		}
		for _, short := range indexes {
			if short.unique || short.partial || keptPrefixes[short.name] {
				continue
			}
			for _, long := range indexes {
				if long.table == short.table && long.name != short.name && !long.partial &&
					len(long.keys) >= len(short.keys) && slices.Equal(long.keys[:len(short.keys)], short.keys) {
					t.Errorf("%s: index %s %v begins index %s %v and can go", short.table, short.name, short.keys, long.name, long.keys)
				}
			}
		}
	})
}

// keptPrefixes are the indexes that begin another one and stay.
var keptPrefixes = map[string]bool{
	// The narrowest index of contacts, which counts an account's contacts
	// for every page of the contact list (meta.count): without it SQLite
	// counted through (account_id, last_activity_at), and the list answered
	// 11-35 % fewer requests a second (docs/performance.md).
	"contact_account_id": true,
}

// tableIndex is an index's table, name and keys (a column and its order,
// or an expression).
type tableIndex struct {
	table, name     string
	unique, partial bool
	keys            []string
	// where is a partial index's condition, lower case, without brackets.
	where string
}

func tableIndexes(t *testing.T, d *db.DB) []tableIndex {
	t.Helper()
	q := `SELECT m.tbl_name, il.name, il."unique", il.partial, coalesce(xi.name, '(expression)') || CASE WHEN xi."desc" THEN ' DESC' ELSE '' END,
			coalesce(substr(ix.sql, instr(upper(ix.sql), ' WHERE ') + 7), '')
		FROM sqlite_master m, pragma_index_list(m.tbl_name) il, pragma_index_xinfo(il.name) xi
		LEFT JOIN sqlite_master ix ON ix.type = 'index' AND ix.name = il.name AND il.partial
		WHERE m.type = 'table' AND xi.key = 1 ORDER BY m.tbl_name, il.name, xi.seqno`
	if d.Dialect == dialect.Postgres {
		q = `SELECT c.relname, i.relname, x.indisunique, x.indpred IS NOT NULL, pg_get_indexdef(x.indexrelid, k.n::int, true) ||
				CASE x.indoption[k.n - 1] WHEN 0 THEN '' WHEN 1 THEN ' DESC NULLS LAST' WHEN 2 THEN ' NULLS FIRST' ELSE ' DESC' END,
			coalesce(pg_get_expr(x.indpred, x.indrelid), '')
			FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
			CROSS JOIN generate_series(1, x.indnkeyatts) AS k(n)
			WHERE c.relnamespace = current_schema()::regnamespace ORDER BY c.relname, i.relname, k.n`
	}
	rows, err := d.SQL.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []tableIndex
	for rows.Next() {
		var ix tableIndex
		var key string
		if err := rows.Scan(&ix.table, &ix.name, &ix.unique, &ix.partial, &key, &ix.where); err != nil {
			t.Fatal(err)
		}
		key = strings.ToLower(key)
		ix.where = strings.ToLower(strings.Trim(strings.TrimSpace(ix.where), "()"))
		if n := len(out); n > 0 && out[n-1].table == ix.table && out[n-1].name == ix.name {
			out[n-1].keys = append(out[n-1].keys, key)
			continue
		}
		ix.keys = []string{key}
		out = append(out, ix)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
