package schema

import (
	"context"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/agentbot"
	cad "github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/hook"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/label"
	"github.com/switchboard/switchboard/ent/team"
	"github.com/switchboard/switchboard/ent/webhooksubscription"
	"github.com/switchboard/switchboard/internal/apperr"
)

// MaxAccountObjects caps each kind of an account's own configuration: its
// labels, inboxes, teams, webhooks, agent bots, kanban automations, funnels
// and custom attribute definitions. REST answers each of those lists whole,
// as Chatwoot does, and GraphQL prices its plain lists of them at this bound,
// so none may grow without one. Two rows created at the same moment may pass
// it by one.
const MaxAccountObjects = 500

// accountRow is a create of an account-scoped row.
type accountRow interface {
	ent.Mutation
	AccountID() (int, bool)
}

// accountCap refuses a create that would give an account more than
// MaxAccountObjects rows of a kind, whichever operation creates it: count
// counts the account's rows, and the refusal names field. (The privacy
// policy, which runs first, stamps the account.)
func accountCap[M accountRow](kind, field string, count func(context.Context, M, int) (int, error)) ent.Hook {
	return createCap(M.AccountID, count, MaxAccountObjects, func() error {
		return apperr.Invalidf(field, "An account has at most %d %s; delete one to add another", MaxAccountObjects, kind)
	})
}

// createCap refuses a create of a row of M that would give its owner (the
// id ownerOf reads off the create: an account, a card) more than limit
// rows: count counts the owner's rows, and refused is the answer. Two rows
// created at the same moment may pass it by one.
func createCap[M ent.Mutation](ownerOf func(M) (int, bool), count func(context.Context, M, int) (int, error), limit int, refused func() error) ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if row, ok := m.(M); ok {
				if owner, ok := ownerOf(row); ok {
					n, err := count(ctx, row, owner)
					if err != nil {
						return nil, err
					}
					if n >= limit {
						return nil, refused()
					}
				}
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate)
}

func (Label) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("labels", "title", func(ctx context.Context, m *gen.LabelMutation, account int) (int, error) {
		return m.Client().Label.Query().Where(label.AccountID(account)).Count(ctx)
	})}
}

func inboxCap() ent.Hook {
	return accountCap("inboxes", "name", func(ctx context.Context, m *gen.InboxMutation, account int) (int, error) {
		return m.Client().Inbox.Query().Where(inbox.AccountID(account)).Count(ctx)
	})
}

func (Team) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("teams", "name", func(ctx context.Context, m *gen.TeamMutation, account int) (int, error) {
		return m.Client().Team.Query().Where(team.AccountID(account)).Count(ctx)
	})}
}

func (WebhookSubscription) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("webhooks", "url", func(ctx context.Context, m *gen.WebhookSubscriptionMutation, account int) (int, error) {
		return m.Client().WebhookSubscription.Query().Where(webhooksubscription.AccountID(account)).Count(ctx)
	})}
}

func (AgentBot) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("agent bots", "name", func(ctx context.Context, m *gen.AgentBotMutation, account int) (int, error) {
		return m.Client().AgentBot.Query().Where(agentbot.AccountID(account)).Count(ctx)
	})}
}

func (KanbanAutomation) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("kanban automations", "name", func(ctx context.Context, m *gen.KanbanAutomationMutation, account int) (int, error) {
		return m.Client().KanbanAutomation.Query().Where(kanbanautomation.AccountID(account)).Count(ctx)
	})}
}

func (Funnel) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("funnels", "name", func(ctx context.Context, m *gen.FunnelMutation, account int) (int, error) {
		return m.Client().Funnel.Query().Where(funnel.AccountID(account)).Count(ctx)
	})}
}

func (CustomAttributeDefinition) Hooks() []ent.Hook {
	return []ent.Hook{accountCap("custom attribute definitions", "attribute_key", func(ctx context.Context, m *gen.CustomAttributeDefinitionMutation, account int) (int, error) {
		return m.Client().CustomAttributeDefinition.Query().Where(cad.AccountID(account)).Count(ctx)
	})}
}
