// Package ent holds the generated data layer; ent/schema is its only
// hand-written part.
package ent

//go:generate go run -mod=mod entc.go entc_docs.go
