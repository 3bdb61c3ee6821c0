package apperr

import (
	"errors"

	"github.com/lib/pq"
)

// unstorableText: PostgreSQL refuses text it cannot store, whichever field
// it is in: a NUL byte or bytes that are not UTF-8 (SQLSTATE 22021,
// character_not_in_repertoire) or a \u0000 escape in JSON (22P05,
// untranslatable_character). That is the client's input, not our failure:
// 422, and the statement's transaction rolls back, so nothing changes.
// (SQLite stores such text as it is; REST refuses NULs before either.)
func unstorableText(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && (pe.Code == "22021" || pe.Code == "22P05")
}

const unstorableTextMessage = "Text must not contain NUL bytes (\\u0000) or invalid UTF-8"
