package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/wire"
)

func newlyAdded(before, after []*ent.AccountUser) []*ent.AccountUser {
	had := map[int]bool{}
	for _, m := range before {
		had[m.UserID] = true
	}
	var out []*ent.AccountUser
	for _, m := range after {
		if !had[m.UserID] {
			out = append(out, m)
		}
	}
	return out
}

func (a *API) inboxMembers(c *fiber.Ctx) error {
	id, err := pathID(c, "inbox_id", "Inbox")
	if err != nil {
		return err
	}
	ms, err := a.svc.InboxMembers(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.Agents(ms)})
}

// changeInboxMembers serves POST (add), PATCH (replace) and DELETE (remove)
// of /inbox_members with {"inbox_id", "user_ids"}; the inbox may also come
// in the path (DELETE /inbox_members/{inbox_id}, as some clients send).
func (a *API) changeInboxMembers(change accounts.MemberChange) fiber.Handler {
	return func(c *fiber.Ctx) error {
		m, err := bodyMap(c)
		if err != nil {
			return err
		}
		var req inboxMembersRequest
		if err := decodeMap(m, "", &req); err != nil {
			return err
		}
		inboxID := req.InboxID.ptr()
		if c.Params("inbox_id") != "" {
			id, err := pathID(c, "inbox_id", "Inbox")
			if err != nil {
				return err
			}
			inboxID = &id
		}
		var errs []string
		if inboxID == nil {
			errs = append(errs, "inbox_id")
		}
		if req.UserIDs == nil {
			errs = append(errs, "user_ids")
		}
		if len(errs) > 0 {
			return invalidFields("Inbox id and user ids are required", errs...)
		}
		if err := a.svc.ChangeInboxMembers(c.UserContext(), *inboxID, change, *req.UserIDs); err != nil {
			return err
		}
		if change == accounts.RemoveMembers {
			return emptyOK(c)
		}
		ms, err := a.svc.InboxMembers(c.UserContext(), *inboxID)
		if err != nil {
			return err
		}
		return c.JSON(H{"payload": wire.Agents(ms)})
	}
}
