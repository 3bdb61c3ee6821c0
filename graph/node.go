package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/agentbot"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/kanbanconfig"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/label"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/ent/team"
	"github.com/switchboard/switchboard/ent/teammember"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
)

// nodeTables maps each GraphQL type implementing Node to its ent table, for
// ent's Noder. TestNodeResolvesEveryType fails when a Node type is missing.
var nodeTables = map[string]string{
	"Agent":            accountuser.Table,
	"AgentBot":         agentbot.Table,
	"CardNote":         cardnote.Table,
	"ChecklistItem":    checklistitem.Table,
	"Contact":          contact.Table,
	"ContactInbox":     contactinbox.Table,
	"Conversation":     conversation.Table,
	"Funnel":           funnel.Table,
	"FunnelStage":      funnelstage.Table,
	"Inbox":            inbox.Table,
	"InboxMember":      inboxmember.Table,
	"KanbanAutomation": kanbanautomation.Table,
	"KanbanConfig":     kanbanconfig.Table,
	"KanbanItem":       kanbanitem.Table,
	"Label":            label.Table,
	"Message":          message.Table,
	"ScheduledMessage": scheduledmessage.Table,
	"Team":             team.Table,
	"TeamMember":       teammember.Table,
	"User":             user.Table,
}

// maxNodes bounds nodes(ids:): each id is one lookup.
const maxNodes = 100

// rawIDArgs is the ID argument as sent: ID arguments decode to database ids,
// and node(id:)/nodes(ids:) need the type the global id carries.
func rawIDArgs(ctx context.Context, name string) []string {
	fc := graphql.GetFieldContext(ctx)
	raw := fc.Field.ArgumentMap(graphql.GetOperationContext(ctx).Variables)[name]
	if list, ok := raw.([]any); ok {
		out := make([]string, len(list))
		for i, v := range list {
			out[i] = fmt.Sprint(v)
		}
		return out
	}
	return []string{fmt.Sprint(raw)}
}

// node resolves one global id under the viewer's privacy rules: an object
// the viewer may not see is not found, as one that does not exist.
func (r *queryResolver) node(ctx context.Context, gid string) (ent.Noder, error) {
	typ, id, err := DecodeGlobalID(gid)
	if err != nil {
		return nil, err
	}
	table, ok := nodeTables[typ]
	if !ok {
		return nil, apperr.Invalid(fmt.Sprintf("%q is not the global id of an object (a database id names no type)", gid), "id")
	}
	n, err := r.client.Noder(ctx, id, ent.WithFixedNodeType(table))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(typ)
	}
	return n, err
}

func (r *queryResolver) nodes(ctx context.Context, gids []string) ([]ent.Noder, error) {
	if len(gids) > maxNodes {
		return nil, apperr.Invalidf("ids", "at most %d ids", maxNodes)
	}
	out := make([]ent.Noder, len(gids))
	for i, gid := range gids {
		n, err := r.node(ctx, gid)
		if err != nil {
			// One missing object is a null in its place, as Relay expects.
			graphql.AddError(graphql.WithPathContext(ctx, graphql.NewPathWithIndex(i)), err)
			continue
		}
		out[i] = n
	}
	return out, nil
}
