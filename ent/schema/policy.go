package schema

import (
	"context"
	"fmt"

	"entgo.io/ent"
	"entgo.io/ent/entql"

	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Privacy policies: tenancy and roles live here, so that no transport can
// forget them. A rule returns privacy.Skip to let the next one decide.

// trusted lets the system and the platform API through every rule.
func trusted() privacy.QueryMutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		v, ok := viewer.FromContext(ctx)
		switch {
		case !ok:
			return fmt.Errorf("%w: %w", privacy.Deny, viewer.ErrNoViewer)
		case v.System || v.Platform:
			return privacy.Allow
		case !v.IsMember():
			return fmt.Errorf("%w: %w", privacy.Deny, viewer.ErrNoViewer)
		}
		return privacy.Skip
	})
}

func denyAdminOnly() error { return fmt.Errorf("%w: %w", privacy.Deny, viewer.ErrAdminOnly) }

// filterByAccount narrows every query and update/delete to the viewer's
// account; another account's rows behave as if they did not exist.
func filterByAccount() privacy.QueryMutationRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		af, ok := f.(interface{ WhereAccountID(entql.IntP) })
		if !ok {
			return privacy.Denyf("%T is not account scoped", f)
		}
		af.WhereAccountID(entql.IntEQ(v.AccountID))
		return privacy.Skip
	})
}

// createInOwnAccount stamps new rows with the viewer's account and refuses a
// row aimed at another account.
func createInOwnAccount() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		if !m.Op().Is(ent.OpCreate) {
			return privacy.Skip
		}
		v, _ := viewer.FromContext(ctx)
		if got, set := m.Field("account_id"); set {
			if got != v.AccountID {
				return privacy.Denyf("row of another account")
			}
			return privacy.Skip
		}
		if err := m.SetField("account_id", v.AccountID); err != nil {
			return privacy.Denyf("setting account: %v", err)
		}
		return privacy.Skip
	})
}

// stampSystemAccount gives rows the system creates on an account's behalf
// (a schedule firing) that account, as createInOwnAccount does for members;
// the system passes every rule after it.
func stampSystemAccount() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		v, _ := viewer.FromContext(ctx)
		if !m.Op().Is(ent.OpCreate) || !v.System || v.AccountID == 0 {
			return privacy.Skip
		}
		if _, set := m.Field("account_id"); !set {
			if err := m.SetField("account_id", v.AccountID); err != nil {
				return privacy.Denyf("setting account: %v", err)
			}
		}
		return privacy.Skip
	})
}

// scopeSystemToAccount narrows the system's work on one account's behalf
// (SystemInAccount) to that account, as the tenant filter narrows a
// member's: a firing schedule cannot reach another account's rows.
func scopeSystemToAccount() privacy.QueryMutationRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		if !v.System || v.AccountID == 0 {
			return privacy.Skip
		}
		if af, ok := f.(interface{ WhereAccountID(entql.IntP) }); ok {
			af.WhereAccountID(entql.IntEQ(v.AccountID))
		}
		return privacy.Skip
	})
}

func tenantPolicy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{visitorReads(), scopeSystemToAccount(), trusted(), filterByAccount()},
		Mutation: privacy.MutationPolicy{
			visitorsWriteNothing(),
			stampSystemAccount(),
			privacy.OnMutationOperation(scopeSystemToAccount(), ent.OpUpdate|ent.OpUpdateOne|ent.OpDelete|ent.OpDeleteOne),
			trusted(),
			privacy.OnMutationOperation(filterByAccount(), ent.OpUpdate|ent.OpUpdateOne|ent.OpDelete|ent.OpDeleteOne),
			createInOwnAccount(),
		},
	}
}

// adminMutations lets only administrators change the entity.
func adminMutations(ops ent.Op) privacy.MutationRule {
	return privacy.OnMutationOperation(administratorsOnly(), ops)
}

// AdministratorsOnly is the administrator rule itself: the policies apply it
// to writes (and to reads of administrator-only entities), and an operation
// asks it first where side effects must not start before the write would be
// refused. It returns nil, or a privacy.Deny wrapping viewer.ErrAdminOnly.
func AdministratorsOnly(ctx context.Context) error {
	if v, _ := viewer.FromContext(ctx); v.IsMember() && !v.IsAdmin() {
		return denyAdminOnly()
	}
	return nil
}

func administratorsOnly() privacy.QueryMutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		if err := AdministratorsOnly(ctx); err != nil {
			return err
		}
		return privacy.Skip
	})
}

func adminWritesPolicy() ent.Policy {
	return privacy.Policy{Mutation: privacy.MutationPolicy{adminMutations(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne | ent.OpDelete | ent.OpDeleteOne)}}
}

func adminDeletesPolicy() ent.Policy {
	return privacy.Policy{Mutation: privacy.MutationPolicy{adminMutations(ent.OpDelete | ent.OpDeleteOne)}}
}

func adminOnlyPolicy() ent.Policy {
	adminOnly := administratorsOnly()
	return privacy.Policy{
		Query:    privacy.QueryPolicy{adminOnly},
		Mutation: privacy.MutationPolicy{adminOnly},
	}
}

// systemOnlyPolicy guards credentials: only start-up, authentication (which
// runs as the system) and the platform API touch them.
func systemOnlyPolicy() ent.Policy {
	deny := privacy.AlwaysDenyRule()
	return privacy.Policy{
		Query:    privacy.QueryPolicy{trusted(), deny},
		Mutation: privacy.MutationPolicy{trusted(), deny},
	}
}

// accountPolicy: a member sees its own account; only administrators may
// change it; accounts are created by the platform API or bootstrap.
func accountPolicy() ent.Policy {
	ownAccount := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		af, ok := f.(interface{ WhereID(entql.IntP) })
		if !ok {
			return privacy.Denyf("unexpected filter %T", f)
		}
		af.WhereID(entql.IntEQ(v.AccountID))
		return privacy.Skip
	})
	return privacy.Policy{
		Query: privacy.QueryPolicy{trusted(), ownAccount},
		Mutation: privacy.MutationPolicy{
			trusted(),
			privacy.OnMutationOperation(privacy.AlwaysDenyRule(), ent.OpCreate|ent.OpDelete|ent.OpDeleteOne),
			adminMutations(ent.OpUpdate | ent.OpUpdateOne),
			ownAccount,
		},
	}
}

// userPolicy: members see the users of their account. An administrator may
// invite a user (no password); nobody but the platform sets a password, so
// the account API can never create a user who can log in by itself.
func userPolicy() ent.Policy {
	inAccount := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		uf, ok := f.(interface {
			WhereHasMembershipsWith(...predicate.AccountUser)
		})
		if !ok {
			return privacy.Denyf("unexpected filter %T", f)
		}
		uf.WhereHasMembershipsWith(accountuser.AccountID(v.AccountID))
		return privacy.Skip
	})
	noPassword := privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		if _, set := m.Field("password_hash"); set {
			return privacy.Denyf("passwords are set through the platform API only")
		}
		return privacy.Skip
	})
	return privacy.Policy{
		Query: privacy.QueryPolicy{visitorSeesSenders(), trusted(), inAccount},
		Mutation: privacy.MutationPolicy{
			trusted(),
			noPassword,
			privacy.OnMutationOperation(privacy.AlwaysDenyRule(), ent.OpDelete|ent.OpDeleteOne),
			adminMutations(ent.OpCreate),
			privacy.OnMutationOperation(inAccount, ent.OpUpdate|ent.OpUpdateOne),
		},
	}
}
