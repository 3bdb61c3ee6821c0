package core

import (
	"context"
	"sort"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
)

// ContainsString reports whether list holds s.
func ContainsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SetIf calls set with *v when v was sent (not nil).
func SetIf[T any](v *T, set func(T)) {
	if v != nil {
		set(*v)
	}
}

// Deref is *p, or the zero value when p is nil (not sent).
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ByID indexes rows by their id, as a batch's reads are looked up.
func ByID[T any](rows []T, id func(T) int) map[int]T {
	out := make(map[int]T, len(rows))
	for _, r := range rows {
		out[id(r)] = r
	}
	return out
}

// UniqueInts is xs without repeats, sorted.
func UniqueInts(xs []int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}

// UniqueStrings is xs without repeats, in their first order.
func UniqueStrings(xs []string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !ContainsString(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// MergeAttributes merges update into base (a nil value removes the key), as
// Chatwoot merges attribute hashes on update.
func MergeAttributes(base, update map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(update))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range update {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// Truncate is s cut to at most n runes: what a channel sends may be longer
// than a field keeps.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// UsersByID loads the users of ids, by id, in one query as the viewer of
// ctx: a user the viewer may not see (one who left the account) is absent.
func UsersByID(ctx context.Context, c *ent.Client, ids []int) (map[int]*ent.User, error) {
	out := map[int]*ent.User{}
	if len(ids) == 0 {
		return out, nil
	}
	us, err := c.User.Query().Where(user.IDIn(UniqueInts(ids)...)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	for _, u := range us {
		out[u.ID] = u
	}
	return out, nil
}

// SetEachByID sets column of each row an UPDATE names to that row's own
// value in byID (rows not in it keep theirs), in the one statement: CASE id
// WHEN … THEN CAST(… AS sqlType) … ELSE column END. A batch's rows each get
// their own id this way (a message's channel id, a schedule's message).
// The cast types the parameter, which PostgreSQL would otherwise take for
// text.
func SetEachByID[V any](column, sqlType string, byID map[int]V) func(*sql.UpdateBuilder) {
	ids := make([]int, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return func(u *sql.UpdateBuilder) {
		u.Set(column, sql.ExprFunc(func(b *sql.Builder) {
			b.WriteString("CASE ").Ident("id")
			for _, id := range ids {
				b.WriteString(" WHEN ").Arg(id).WriteString(" THEN CAST(").Arg(byID[id]).WriteString(" AS " + sqlType + ")")
			}
			b.WriteString(" ELSE ").Ident(column).WriteString(" END")
		}))
	}
}

// ForUpdateOnPostgres adds FOR UPDATE on PostgreSQL; SQLite has no such clause.
func ForUpdateOnPostgres(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate()
	}
}

// ForUpdateSkipLockedOnPostgres locks the rows read on PostgreSQL, passing
// over rows another transaction holds: concurrent readers of a queue take
// different rows. SQLite has no such clause (its writer is alone).
func ForUpdateSkipLockedOnPostgres(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
}
