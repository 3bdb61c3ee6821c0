package schema

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/hook"
)

// searchTextHook keeps a contact's search_text, the lower-cased name,
// e-mail, phone number and identifier, in step with those fields.
func searchTextHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.ContactFunc(func(ctx context.Context, m *gen.ContactMutation) (ent.Value, error) {
			if !touchesSearchFields(m) {
				return next.Mutate(ctx, m)
			}
			if m.Op().Is(ent.OpUpdate) {
				return nil, fmt.Errorf("contact search fields may only change one contact at a time")
			}
			text, err := searchText(ctx, m)
			if err != nil {
				return nil, err
			}
			if err := m.SetField("search_text", text); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne)
}

func touchesSearchFields(m *gen.ContactMutation) bool {
	if m.Op().Is(ent.OpCreate) {
		return true
	}
	for _, f := range m.Fields() {
		switch f {
		case "name", "email", "phone_number", "identifier":
			return true
		}
	}
	for _, f := range m.ClearedFields() {
		switch f {
		case "email", "phone_number", "identifier":
			return true
		}
	}
	return false
}

// searchText joins the contact's searchable fields as they will be after the
// mutation: new values where set, old ones otherwise.
func searchText(ctx context.Context, m *gen.ContactMutation) (string, error) {
	name, ok := m.Name()
	if !ok && m.Op().Is(ent.OpUpdateOne) {
		old, err := m.OldName(ctx)
		if err != nil {
			return "", err
		}
		name = old
	}
	parts := []string{name}
	for _, f := range []struct {
		value   func() (string, bool)
		cleared bool
		old     func(context.Context) (*string, error)
	}{
		{m.Email, m.EmailCleared(), m.OldEmail},
		{m.PhoneNumber, m.PhoneNumberCleared(), m.OldPhoneNumber},
		{m.Identifier, m.IdentifierCleared(), m.OldIdentifier},
	} {
		v, err := fieldAfter(ctx, m, f.value, f.cleared, f.old)
		if err != nil {
			return "", err
		}
		parts = append(parts, v)
	}
	return strings.ToLower(strings.Join(parts, " ")), nil
}

func fieldAfter(ctx context.Context, m *gen.ContactMutation, value func() (string, bool), cleared bool, old func(context.Context) (*string, error)) (string, error) {
	if v, ok := value(); ok {
		return v, nil
	}
	if cleared || !m.Op().Is(ent.OpUpdateOne) {
		return "", nil
	}
	o, err := old(ctx)
	if err != nil || o == nil {
		return "", err
	}
	return *o, nil
}
