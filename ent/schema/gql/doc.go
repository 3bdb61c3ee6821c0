// Package gql holds the schema's GraphQL annotations: entgql's when ent's code
// generator loads the schema (ent/entc.go builds it with the tag entgen),
// inert values in every other build.
//
// The server imports the schema (ent's runtime reads its hooks, policies and
// defaults) but never its annotations. Importing entgql for them linked
// entgql's generator, with ent's and gqlgen's, into the server: 4.6 MB of a
// 64.6 MB binary (issue 13).
package gql
