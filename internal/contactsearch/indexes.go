package contactsearch

// The objects contact search needs that ent/schema cannot declare, made by
// the hand-written migration *_contact_search_index.sql of each engine
// (internal/db/migrations). Schema diffs leave them alone (internal/db).

// Table is SQLite's FTS5 index of contacts.search_text. Its rowid is the
// contact's id; it keeps no copy of the text.
const Table = "contact_search"

// SQLiteTables are the FTS table and the shadow tables FTS5 keeps for it.
var SQLiteTables = []string{Table, Table + "_config", Table + "_data", Table + "_docsize", Table + "_idx"}

// SQLiteTriggers keep the FTS table in step with contacts.
var SQLiteTriggers = []string{"contact_search_insert", "contact_search_update", "contact_search_delete"}

// PostgresIndexes serve the default contact order on PostgreSQL: (account_id,
// last_activity_at DESC NULLS LAST, id DESC), which ent cannot declare.
var PostgresIndexes = []string{"contact_account_recent_activity"}
