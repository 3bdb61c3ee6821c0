package accounts

import (
	"context"
	"fmt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// MemberChange says how a list of user ids changes a member set.
type MemberChange int

const (
	// AddMembers adds the users (those already in stay).
	AddMembers MemberChange = iota
	// ReplaceMembers makes the set exactly the users.
	ReplaceMembers
	// RemoveMembers removes the users.
	RemoveMembers
)

// MemberSet is a set of users attached to something (an inbox, a team).
type MemberSet struct {
	Current func(ctx context.Context, c *ent.Client) ([]int, error)
	Add     func(ctx context.Context, c *ent.Client, userIDs []int) error
	Remove  func(ctx context.Context, c *ent.Client, userIDs []int) error
}

// ChangeMembers applies change to set in one transaction, after checking
// that every id names a user of the account: one stranger and nothing changes.
func (s *Service) ChangeMembers(ctx context.Context, set MemberSet, change MemberChange, userIDs []int) error {
	if err := core.CheckListLen("user_ids", len(userIDs), core.MaxIDs); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ids := core.UniqueInts(userIDs)
		if err := CheckAccountUsers(ctx, c, ids); err != nil {
			return err
		}
		current, err := set.Current(ctx, c)
		if err != nil {
			return err
		}
		toAdd, toRemove := diffMembers(current, ids, change)
		if len(toRemove) > 0 {
			if err := set.Remove(ctx, c, toRemove); err != nil {
				return err
			}
		}
		if len(toAdd) > 0 {
			return set.Add(ctx, c, toAdd)
		}
		return nil
	}))
}

// diffMembers computes which users a change adds and removes.
func diffMembers(current, ids []int, change MemberChange) (toAdd, toRemove []int) {
	has := map[int]bool{}
	for _, id := range current {
		has[id] = true
	}
	want := map[int]bool{}
	for _, id := range ids {
		want[id] = true
	}
	switch change {
	case AddMembers:
		for _, id := range ids {
			if !has[id] {
				toAdd = append(toAdd, id)
			}
		}
	case RemoveMembers:
		for _, id := range ids {
			if has[id] {
				toRemove = append(toRemove, id)
			}
		}
	case ReplaceMembers:
		for _, id := range ids {
			if !has[id] {
				toAdd = append(toAdd, id)
			}
		}
		for _, id := range current {
			if !want[id] {
				toRemove = append(toRemove, id)
			}
		}
	}
	return toAdd, toRemove
}

// CheckAccountUsers fails with 422 unless every id is a member of the account.
func CheckAccountUsers(ctx context.Context, c *ent.Client, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := c.AccountUser.Query().Where(accountuser.UserIDIn(ids...)).
		Select(accountuser.FieldUserID).Ints(ctx)
	if err != nil {
		return err
	}
	in := map[int]bool{}
	for _, id := range found {
		in[id] = true
	}
	var strangers []int
	for _, id := range ids {
		if !in[id] {
			strangers = append(strangers, id)
		}
	}
	if len(strangers) > 0 {
		return apperr.Invalidf("user_ids", "Invalid User IDs: %v are not agents of this account", strangers)
	}
	return nil
}

// AgentsByUserID returns the account's agent records of the given users,
// ordered by user id.
func (s *Service) AgentsByUserID(ctx context.Context, ids []int) ([]*ent.AccountUser, error) {
	if len(ids) == 0 {
		return []*ent.AccountUser{}, nil
	}
	ms, err := s.Client(ctx).AccountUser.Query().Where(accountuser.UserIDIn(ids...)).
		WithUser().Order(ent.Asc(accountuser.FieldUserID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading agents: %w", err)
	}
	return ms, nil
}
