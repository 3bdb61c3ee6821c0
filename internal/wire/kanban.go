package wire

import "github.com/switchboard/switchboard/ent"

// Card is a card as the API and the kanban webhooks show it: the
// forks' item shape (funnel_stage as a slug, item_details holding title,
// priority, value and currency) plus the position they leave out.
func Card(it *ent.KanbanItem) H {
	details := H{}
	for k, v := range it.ItemDetails {
		details[k] = v
	}
	currency := H{}
	for k, v := range it.Currency {
		currency[k] = v
	}
	details["title"] = it.Title
	details["description"] = it.Description
	details["priority"] = string(it.Priority)
	details["value"] = it.Value
	details["currency"] = currency
	details["status"] = string(it.Status)
	p := H{
		"id":                      it.ID,
		"account_id":              it.AccountID,
		"funnel_id":               it.FunnelID,
		"funnel_stage":            "",
		"stage_id":                it.StageID,
		"position":                it.Position,
		"status":                  string(it.Status),
		"item_details":            details,
		"conversation_display_id": nil,
		"conversation":            nil,
		"assigned_agents":         cardAgents(it.Edges.AssignedAgents),
		"stage_entered_at":        Time(it.StageEnteredAt),
		"closed_at":               TimePtr(it.ClosedAt),
		"created_by_id":           it.CreatedByID,
		"created_at":              Time(it.CreatedAt),
		"updated_at":              Time(it.UpdatedAt),
	}
	if st := it.Edges.Stage; st != nil {
		p["funnel_stage"] = st.Slug
		p["stage_name"] = st.Name
	}
	if cv := it.Edges.Conversation; cv != nil {
		p["conversation_display_id"] = cv.DisplayID
		conv := H{"id": cv.DisplayID, "inbox_id": cv.InboxID, "status": string(cv.Status), "contact": nil}
		if ct := cv.Edges.Contact; ct != nil {
			conv["contact"] = H{"id": ct.ID, "name": ct.Name, "email": ct.Email, "phone_number": ct.PhoneNumber}
		}
		p["conversation"] = conv
	}
	return p
}

func cardAgents(us []*ent.User) []H {
	out := make([]H, 0, len(us))
	for _, u := range us {
		out = append(out, H{"id": u.ID, "name": u.Name, "email": u.Email, "avatar_url": u.AvatarURL})
	}
	return out
}
