package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/switchboard/switchboard/internal/kanban"
)

// The request bodies of the card routes, decoded by decode like every
// other body.

// cardRequest is a card body, wrapped in kanban_item or not.
type cardRequest struct {
	FunnelID *flexInt    `json:"funnel_id"`
	Stage    *flexString `json:"funnel_stage"`
	Position *flexInt    `json:"position"`
	// null unlinks the conversation; null agents unassign them all.
	ConversationDisplayID optional[flexInt]  `json:"conversation_display_id"`
	AssignedAgents        optional[flexInts] `json:"assigned_agents"`
	ItemDetails           *itemDetails       `json:"item_details"`
}

func (r *cardRequest) input() (kanban.CardInput, error) {
	in := kanban.CardInput{
		FunnelID: r.FunnelID.ptr(), Stage: r.Stage.ptr(), Position: r.Position.ptr(),
		ConversationDisplayID: r.ConversationDisplayID.get().ptr(), ClearConversation: r.ConversationDisplayID.clear,
	}
	if r.AssignedAgents.sent {
		agents := append([]int{}, r.AssignedAgents.value...)
		in.AssignedAgents = &agents
	}
	d := r.ItemDetails
	if d == nil {
		return in, nil
	}
	in.Title, in.Description, in.Priority, in.Value = d.Title.ptr(), d.Description.ptr(), d.Priority.ptr(), d.Value.ptr()
	in.Details = d.others
	var err error
	in.Currency, err = kanban.CurrencyOf(d.Currency, "item_details.currency")
	return in, err
}

// itemDetails is a card's item_details: the keys stored in their own
// columns, and the others, kept as sent.
type itemDetails struct {
	Title       *flexString `json:"title"`
	Description *flexString `json:"description"`
	Priority    *flexString `json:"priority"`
	Value       *flexFloat  `json:"value"`
	// Currency is read by kanban.CurrencyOf, which GraphQL shares.
	Currency any `json:"currency"`
	others   map[string]any
}

// detailColumns are the item_details keys with a column of their own;
// status is among them but changes only through change_status.
var detailColumns = []string{"title", "description", "priority", "value", "currency", "status"}

func (d *itemDetails) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // the other keys keep their numbers as sent
	var all map[string]any
	if dec.Decode(&all) != nil || all == nil {
		return &fieldError{msg: "expected an object"}
	}
	type columns itemDetails // the fields without this method
	if err := json.Unmarshal(data, (*columns)(d)); err != nil {
		if key, keyErr := failingPath(all, reflect.TypeFor[columns]()); key != "" {
			return &fieldError{msg: reason(keyErr), key: key}
		}
		return &fieldError{msg: reason(err)}
	}
	for _, k := range detailColumns {
		delete(all, k)
	}
	d.others = all
	return nil
}

// moveRequest is move_to_stage {funnel_stage, position?} and move
// {funnel_id, funnel_stage, position?}; new_stage is the forks' name for
// funnel_stage.
type moveRequest struct {
	FunnelID *flexInt    `json:"funnel_id"`
	Stage    *flexString `json:"funnel_stage"`
	NewStage *flexString `json:"new_stage"`
	Position *flexInt    `json:"position"`
}

func (r *moveRequest) input() kanban.MoveInput {
	return kanban.MoveInput{FunnelID: r.FunnelID.ptr(), Stage: either(r.Stage, r.NewStage).ptr(), Position: r.Position.ptr()}
}

// reorderRequest is a reorder: positions [{id, position, funnel_stage?}].
type reorderRequest struct {
	Positions *positionList `json:"positions"`
}

type statusRequest struct {
	Status flexString `json:"status"`
}

// positionList is a reorder's [{id, position, funnel_stage?}].
type positionList []kanban.ReorderEntry

func (l *positionList) UnmarshalJSON(data []byte) error {
	var list []struct {
		ID       *flexInt    `json:"id"`
		Position *flexInt    `json:"position"`
		Stage    *flexString `json:"funnel_stage"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return listError(err, "expected a list of {id, position, funnel_stage?}")
	}
	out := make(positionList, 0, len(list))
	for _, p := range list {
		if p.ID == nil || p.Position == nil {
			return &fieldError{msg: "each position needs an id and a position"}
		}
		out = append(out, kanban.ReorderEntry{ID: int(*p.ID), Position: int(*p.Position), Stage: p.Stage.ptr()})
	}
	*l = out
	return nil
}

// listError is the error of a list of objects: an item's own field error,
// or what the list should have been.
func listError(err error, want string) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		return fe
	}
	return &fieldError{msg: want}
}

// either is a, or b when a was not sent (a field and the forks' name for it).
func either[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}
