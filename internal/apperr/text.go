package apperr

import (
	"errors"

	"github.com/lib/pq"
)

// unstorableText: PostgreSQL refuses text holding a NUL byte (or bytes that
// are not UTF-8) with SQLSTATE 22021, whichever field it is in. That is the
// client's input, not our failure: 422, and the statement's transaction
// rolls back, so nothing changes. (SQLite stores such text as it is.)
func unstorableText(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "22021"
}

const unstorableTextMessage = "Text must not contain NUL bytes (\\u0000) or invalid UTF-8"
