package accounts

import "strings"

// RequestToken reads a caller's access token from its headers, for REST and
// GraphQL alike: the api_access_token header (Api-Access-Token is the same
// header to HTTP clients that normalize underscores away), else
// Authorization: Bearer. get reads one header, case-insensitively.
func RequestToken(get func(string) string) string {
	if t := get("api_access_token"); t != "" {
		return t
	}
	if t := get("Api-Access-Token"); t != "" {
		return t
	}
	if auth := get("Authorization"); len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		return strings.TrimSpace(auth[7:])
	}
	return ""
}
