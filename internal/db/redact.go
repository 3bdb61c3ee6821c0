package db

import (
	"net/url"
	"regexp"
)

// passwordSetting is a password in PostgreSQL's key=value connection
// string form ("host=db password=secret").
var passwordSetting = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// Redacted is a DATABASE_URL as an error or a printed command may show it:
// without a password, whether it is in the URL's user information, in its
// password parameter, or in a key=value connection string.
func Redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return passwordSetting.ReplaceAllString(raw, "${1}xxxxx")
	}
	if !WithoutPassword(u) {
		return raw // as written: nothing to hide
	}
	return u.String()
}

// WithoutPassword removes u's password, its user information's and its
// password parameter, and reports whether it had one.
func WithoutPassword(u *url.URL) bool {
	had := false
	if u.User != nil {
		_, had = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	if q := u.Query(); q.Has("password") {
		had = true
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return had
}
