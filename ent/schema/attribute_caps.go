package schema

import (
	"context"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	cad "github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/hook"
	"github.com/switchboard/switchboard/internal/apperr"
)

// MaxAttributeDefinitions caps an account's custom attribute definitions
// (both models together): REST lists them all at once, as Chatwoot does, so
// the cap is that list's bound. Two definitions created at the same moment
// may pass it by one.
const MaxAttributeDefinitions = 500

// Hooks refuses a definition past MaxAttributeDefinitions, whichever
// operation creates it.
func (CustomAttributeDefinition) Hooks() []ent.Hook {
	return []ent.Hook{hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.CustomAttributeDefinitionFunc(func(ctx context.Context, m *gen.CustomAttributeDefinitionMutation) (ent.Value, error) {
			if err := checkDefinitionsCap(ctx, m); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate)}
}

func checkDefinitionsCap(ctx context.Context, m *gen.CustomAttributeDefinitionMutation) error {
	account, ok := m.AccountID()
	if !ok {
		return nil // refused as incomplete further on
	}
	n, err := m.Client().CustomAttributeDefinition.Query().Where(cad.AccountID(account)).Count(ctx)
	if err != nil {
		return err
	}
	if n >= MaxAttributeDefinitions {
		return apperr.Invalidf("attribute_key", "An account has at most %d custom attribute definitions; delete one to add another", MaxAttributeDefinitions)
	}
	return nil
}
