// Package graph serves the GraphQL API (gqlgen) over the same operations as
// the REST API. Resolvers stay thin: they translate arguments and call ops.
package graph

//go:generate go tool gqlgen generate

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
)

// Resolver is the root resolver.
type Resolver struct {
	client *ent.Client
	svc    *ops.Service
	events *events.Hub
}

// NewResolver returns the root resolver over svc; subscriptions listen to hub.
func NewResolver(client *ent.Client, svc *ops.Service, hub *events.Hub) *Resolver {
	return &Resolver{client: client, svc: svc, events: hub}
}

// newConfig is the executable schema's configuration: the resolvers and the
// directives' implementations.
func newConfig(r *Resolver) Config {
	c := Config{Resolvers: r}
	c.Directives.GlobalId = globalIDDirective
	return c
}
