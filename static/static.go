// Package static embeds the console's own CSS and JavaScript.
package static

import "embed"

// Files are served under /static/.
//
//go:embed *.css *.js *.svg
var Files embed.FS
