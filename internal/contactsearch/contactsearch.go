// Package contactsearch is what contact search needs beyond ent's schema: the
// indexes ent cannot declare (their names; hand-written migrations make them)
// and the predicate that reads them (used by ops.SearchContacts).
//
// Search matches contacts whose search_text (their lower-cased name, e-mail,
// phone number and identifier, kept by a hook in ent/schema) contains the
// lower-cased query. The query is lower-cased by Go on both sides, so Unicode
// case folding is the same on both engines.
//
//   - PostgreSQL: search_text LIKE '%q%', served by the pg_trgm GIN index
//     declared in ent/schema for rare terms, and for common ones by walking
//     the index on (account_id, last_activity_at DESC NULLS LAST, id DESC),
//     which is the default order: the planner picks.
//   - SQLite: LIKE cannot use an index, so an FTS5 table of trigrams of
//     search_text, kept in step with contacts by triggers, finds the
//     matches. A query whose matches are many and wanted in the default
//     order walks the (account_id, last_activity_at) index with LIKE instead,
//     which stops after a page.
//
// Trigrams cannot serve queries shorter than three characters: those use
// LIKE on both engines, correct but a scan of the account's contacts when
// the term is rare.
package contactsearch

import (
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/predicate"
)

// MinIndexed is the shortest query, in characters, a trigram index serves.
const MinIndexed = 3

// Match is the predicate of contacts whose search_text contains q, ignoring
// case. walk says the caller expects many matches in the default order: on
// SQLite it then reads contacts in that order and tests each with LIKE,
// rather than collecting every match from the FTS table and sorting them.
// Both give the same rows.
func Match(q string, walk bool) predicate.Contact {
	q = strings.ToLower(q)
	like := contact.SearchTextContains(q)
	if walk || utf8.RuneCountInString(q) < MinIndexed {
		return like
	}
	return func(s *sql.Selector) {
		if s.Dialect() != dialect.SQLite {
			like(s)
			return
		}
		fts := sql.Table(Table)
		s.Join(fts).On(s.C(contact.FieldID), fts.C("rowid"))
		s.Where(sql.P(func(b *sql.Builder) {
			b.Ident(Table).WriteString(" MATCH ").Arg(phrase(q))
		}))
	}
}

// phrase is q as one FTS5 string: with the trigram tokenizer it matches the
// documents that contain q. A double quote is the string's only special
// character, written twice.
func phrase(q string) string {
	return `"` + strings.ReplaceAll(q, `"`, `""`) + `"`
}
