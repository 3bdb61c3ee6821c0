package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/contactsearch"
)

// A replay sends a route's essential statements straight through
// database/sql: what the route has to ask the database for its answer, in
// the fewest plain statements, without HTTP, authentication, ent or JSON.
// Driven like the route (same clients, same time), it gives the floor the
// route is compared with: route/direct is how many times the cost of its
// essential SQL a request costs.
type replay func(ctx context.Context, r *replayer, rng *rand.Rand) error

// replayer runs replays against the harness's database.
type replayer struct {
	db       *sql.DB
	postgres bool
	w        *world
}

func newReplayer(sqlDB *sql.DB, dia string, w *world) *replayer {
	return &replayer{db: sqlDB, postgres: dia == dialect.Postgres, w: w}
}

// rebind turns ? placeholders into PostgreSQL's $n (no statement here has a
// ? inside a literal).
func (r *replayer) rebind(query string) string {
	if !r.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// queryer is a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// ids runs a query, reads every column of every row (as the route has to),
// and returns the first column of each row as an id.
func (r *replayer) ids(ctx context.Context, q queryer, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, r.rebind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	cells := make([]sql.RawBytes, len(cols))
	dest := make([]any, len(cols))
	for i := range cells {
		dest[i] = &cells[i]
	}
	var out []int64
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		id, _ := strconv.ParseInt(string(cells[0]), 10, 64)
		out = append(out, id)
	}
	return out, rows.Err()
}

// in is "?, ?, ?" for n values, and the values as arguments.
func in(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", "), args
}

// contactInboxes reads the contact inboxes of the contacts, with their inboxes.
func (r *replayer) contactInboxes(ctx context.Context, contacts []int64) error {
	if len(contacts) == 0 {
		return nil
	}
	list, args := in(contacts)
	_, err := r.ids(ctx, r.db, `SELECT ci.*, i.* FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id
		WHERE ci.contact_id IN (`+list+`) AND ci.account_id = ? ORDER BY ci.contact_id, ci.id`, append(args, r.w.accountID)...)
	return err
}

func replayShowContact(ctx context.Context, r *replayer, rng *rand.Rand) error {
	id := r.w.contacts[rng.IntN(len(r.w.contacts))]
	if _, err := r.ids(ctx, r.db, `SELECT * FROM contacts WHERE id = ? AND account_id = ?`, id, r.w.accountID); err != nil {
		return err
	}
	return r.contactInboxes(ctx, []int64{int64(id)})
}

func replayGraphQLContact(ctx context.Context, r *replayer, rng *rand.Rand) error {
	id := r.w.contacts[rng.IntN(len(r.w.contacts))]
	if _, err := r.ids(ctx, r.db, `SELECT id, name, email, phone_number FROM contacts WHERE id = ? AND account_id = ?`, id, r.w.accountID); err != nil {
		return err
	}
	_, err := r.ids(ctx, r.db, `SELECT ci.id, ci.source_id, i.id, i.name FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id
		WHERE ci.contact_id = ? AND ci.account_id = ?`, id, r.w.accountID)
	return err
}

const recentFirst = ` ORDER BY last_activity_at DESC NULLS LAST, id DESC`

func replayListContacts(ctx context.Context, r *replayer, rng *rand.Rand) error {
	page := contactListPage(r.w, rng)
	if _, err := r.ids(ctx, r.db, `SELECT COUNT(*) FROM contacts WHERE account_id = ?`, r.w.accountID); err != nil {
		return err
	}
	ids, err := r.ids(ctx, r.db, `SELECT * FROM contacts WHERE account_id = ?`+recentFirst+` LIMIT 15 OFFSET ?`, r.w.accountID, (page-1)*15)
	if err != nil {
		return err
	}
	return r.contactInboxes(ctx, ids)
}

// replaySearchContacts counts a window of matches, then reads the page as
// the route does (internal/contactsearch): on SQLite through the FTS5
// trigram table, or for a term with a full window by walking the contacts in
// recent-activity order with LIKE; on PostgreSQL with LIKE, which the
// planner serves with the trigram or the recent-activity index.
func replaySearchContacts(ctx context.Context, r *replayer, rng *rand.Rand) error {
	term := strings.ToLower(searchTerm(rng))
	from, match, arg := `contacts`, `contacts.search_text LIKE ?`, any("%"+term+"%")
	fts := !r.postgres
	if fts {
		from = `contacts JOIN ` + contactsearch.Table + ` ON ` + contactsearch.Table + `.rowid = contacts.id`
		match, arg = contactsearch.Table+` MATCH ?`, `"`+term+`"`
	}
	window, err := r.ids(ctx, r.db, `SELECT contacts.id FROM `+from+` WHERE contacts.account_id = ? AND `+match+` LIMIT ?`,
		r.w.accountID, arg, contacts.SearchCountWindow)
	if err != nil {
		return err
	}
	if fts && len(window) == contacts.SearchCountWindow {
		from, match, arg = `contacts`, `contacts.search_text LIKE ?`, "%"+term+"%"
	}
	ids, err := r.ids(ctx, r.db, `SELECT contacts.* FROM `+from+` WHERE contacts.account_id = ? AND `+match+
		` ORDER BY contacts.last_activity_at DESC NULLS LAST, contacts.id DESC LIMIT 15`, r.w.accountID, arg)
	if err != nil {
		return err
	}
	return r.contactInboxes(ctx, ids)
}

// replayConversations is the list's three reads: the four counts at once,
// the page with each conversation's contact and inbox, their last messages
// (each the newest by its own seek down the (conversation_id, id) index).
func replayConversations(ctx context.Context, r *replayer, _ *rand.Rand) error {
	_, err := r.ids(ctx, r.db, `SELECT COUNT(*), COUNT(assignee_id), SUM(CASE WHEN assignee_id = ? THEN 1 ELSE 0 END)
		FROM conversations WHERE account_id = ?`, r.w.userID, r.w.accountID)
	if err != nil {
		return err
	}
	convs, err := r.ids(ctx, r.db, `SELECT c.*, ct.*, i.* FROM conversations c
		JOIN contacts ct ON ct.id = c.contact_id JOIN inboxes i ON i.id = c.inbox_id
		WHERE c.account_id = ? ORDER BY c.last_activity_at DESC, c.id DESC LIMIT 25`, r.w.accountID)
	if err != nil || len(convs) == 0 {
		return err
	}
	list, args := in(convs)
	_, err = r.ids(ctx, r.db, `SELECT * FROM messages WHERE `+r.idIn(`SELECT (SELECT MAX(m.id) FROM messages m
		WHERE m.conversation_id = c.id) FROM conversations c WHERE c.id IN (`+list+`)`), args...)
	return err
}

// idIn is "id is one of the ids sub selects", as the route asks it of each
// engine: PostgreSQL gets them as an array, which it looks up through the
// primary key (conversations.isNewestMessage).
func (r *replayer) idIn(sub string) string {
	if r.postgres {
		return `id = ANY(ARRAY(` + sub + `))`
	}
	return `id IN (` + sub + `)`
}

func replayMessagePage(ctx context.Context, r *replayer, rng *rand.Rand) error {
	conv, err := r.ids(ctx, r.db, `SELECT * FROM conversations WHERE account_id = ? AND display_id = ?`, r.w.accountID, r.w.busyConv)
	if err != nil || len(conv) == 0 {
		return fmt.Errorf("conversation %d: %v", r.w.busyConv, err)
	}
	msgs, err := r.ids(ctx, r.db, `SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT 20`,
		conv[0], messageCursor(r.w, rng))
	if err != nil || len(msgs) == 0 {
		return err
	}
	list, args := in(msgs)
	_, err = r.ids(ctx, r.db, `SELECT * FROM attachments WHERE message_id IN (`+list+`)`, args...)
	return err
}

// replayPostMessage finds the conversation, then in one transaction inserts
// the message and moves the conversation's and the contact's activity.
func replayPostMessage(ctx context.Context, r *replayer, rng *rand.Rand) error {
	var conv, inbox, contact int64
	err := r.db.QueryRowContext(ctx, r.rebind(`SELECT id, inbox_id, contact_id FROM conversations WHERE account_id = ? AND display_id = ?`),
		r.w.accountID, r.w.convs[rng.IntN(len(r.w.convs))]).Scan(&conv, &inbox, &contact)
	if err != nil {
		return err
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	now := time.Now().UTC()
	_, err = r.ids(ctx, tx, `INSERT INTO messages (created_at, updated_at, inbox_id, content, message_type, content_type,
		private, status, content_attributes, additional_attributes, sender_type, sender_id, delivery_attempts,
		account_id, conversation_id) VALUES (?, ?, ?, ?, 'outgoing', 'text', ?, 'sent', '{}', '{}', 'user', ?, 0, ?, ?) RETURNING id`,
		now, now, inbox, "Thanks, we are on it.", false, r.w.userID, r.w.accountID, conv)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, r.rebind(`UPDATE conversations SET updated_at = ?, last_activity_at = ? WHERE id = ?`), now, now, conv); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, r.rebind(`UPDATE contacts SET updated_at = ?, last_activity_at = ? WHERE id = ?`), now, now, contact); err != nil {
		return err
	}
	return tx.Commit()
}
