// Package ent holds the generated data layer. Its hand-written parts are
// ent/schema and ent/relay (what the generated GraphQL code calls at run time;
// outside internal/ because gqlgen binds the Cursor alias only to a package
// that is not internal).
package ent

//go:generate go run -mod=mod entc.go entc_docs.go
