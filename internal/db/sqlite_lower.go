package db

import (
	"database/sql/driver"
	"strings"

	"modernc.org/sqlite" // pure-Go SQLite driver "sqlite"
)

// SQLite's built-in lower() folds ASCII letters only, so a case-insensitive
// match (ent's ContainsFold is LOWER(col) LIKE on SQLite, ILIKE on
// PostgreSQL) missed "AÇÃO" for "ação" on SQLite alone. Replacing lower()
// on every SQLite connection with Go's Unicode lower-casing makes both
// engines answer alike.
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("lower", 1, unicodeLower)
}

func unicodeLower(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	switch v := args[0].(type) {
	case string:
		return strings.ToLower(v), nil
	case []byte:
		return []byte(strings.ToLower(string(v))), nil
	}
	return args[0], nil
}
