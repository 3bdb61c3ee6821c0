package schema

import (
	"context"
	"fmt"
	"regexp"
	"unicode/utf8"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/hook"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Formats of values that more than one entry point writes. The ent fields
// validate with these functions, and an operation that must name a list
// position in its error (a funnel's stages) asks the same functions first.

var (
	stageSlugPattern  = regexp.MustCompile(`^[a-z0-9_-]{1,100}$`)
	stageColorPattern = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)
)

// ValidStageSlug: a-z, 0-9, '_' and '-', at most 100 characters.
func ValidStageSlug(slug string) error {
	if !stageSlugPattern.MatchString(slug) {
		return fmt.Errorf("slug %q may only contain a-z, 0-9, '_' and '-' (at most 100)", slug)
	}
	return nil
}

// ValidStageColor: empty, or a CSS hex colour (#rgb, #rgba, #rrggbb, #rrggbbaa).
func ValidStageColor(color string) error {
	if color != "" && !stageColorPattern.MatchString(color) {
		return fmt.Errorf("color %q must be a hex colour like #1f93ff", color)
	}
	return nil
}

// currencyKeys are the parts of a card's currency, as the kanban forks send
// it: {symbol, code, locale}.
var currencyKeys = map[string]bool{"symbol": true, "code": true, "locale": true}

// ValidCurrency: only symbol, code and locale, each at most 32 characters.
func ValidCurrency(c map[string]string) error {
	for k, v := range c {
		if !currencyKeys[k] {
			return fmt.Errorf("currency has an unknown key %q: use symbol, code and locale", k)
		}
		if utf8.RuneCountInString(v) > 32 {
			return fmt.Errorf("currency %s is longer than 32 characters", k)
		}
	}
	return nil
}

// currencyFormatHook checks a card's currency on every write (JSON fields
// have no validators in ent).
func currencyFormatHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.KanbanItemFunc(func(ctx context.Context, m *gen.KanbanItemMutation) (ent.Value, error) {
			if c, ok := m.Currency(); ok {
				if err := ValidCurrency(c); err != nil {
					return nil, apperr.Invalid("Currency is invalid: "+err.Error(), "currency")
				}
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne)
}
