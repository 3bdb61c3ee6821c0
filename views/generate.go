// Package views holds the console's templ components. Every screen renders
// through them, full pages and live fragments alike.
package views

//go:generate go tool templ generate
