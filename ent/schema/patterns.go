package schema

import "regexp"

var (
	attributeKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9_]+$`)
	// Label titles: letters, digits, '-' and '_' (no spaces), as Chatwoot.
	labelTitlePattern = regexp.MustCompile(`^[\p{L}\p{N}_-]+$`)
	hexColorPattern   = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)
