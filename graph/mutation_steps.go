package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/kanban"
)

// The mutations that take more than one step, each as one call returning
// what its payload carries, so the resolver hands the result to outcome
// like every other.

// setInboxAgentBot switches the bot and answers the inbox as it now is.
func (r *mutationResolver) setInboxAgentBot(ctx context.Context, inboxID int, agentBotID *int) (*ent.Inbox, error) {
	if err := r.svc.SetInboxAgentBot(ctx, inboxID, agentBotID); err != nil {
		return nil, err
	}
	return r.svc.Inbox(ctx, inboxID)
}

func (r *mutationResolver) changeInboxMembers(ctx context.Context, inboxID int, userIDs []int, change model.MemberChange) ([]*ent.AccountUser, error) {
	if err := r.svc.ChangeInboxMembers(ctx, inboxID, memberChange(change), userIDs); err != nil {
		return nil, err
	}
	return r.svc.InboxMembers(ctx, inboxID)
}

func (r *mutationResolver) changeTeamMembers(ctx context.Context, teamID int, userIDs []int, change model.MemberChange) ([]*ent.AccountUser, error) {
	if err := r.svc.ChangeTeamMembers(ctx, teamID, memberChange(change), userIDs); err != nil {
		return nil, err
	}
	return r.svc.TeamMembers(ctx, teamID)
}

func (r *mutationResolver) createCard(ctx context.Context, input model.KanbanItemInput) (*ent.KanbanItem, error) {
	in, err := cardInput(input)
	if err != nil {
		return nil, err
	}
	return r.svc.CreateCard(ctx, in)
}

func (r *mutationResolver) updateCard(ctx context.Context, id int, input model.KanbanItemInput) (*ent.KanbanItem, error) {
	in, err := cardInput(input)
	if err != nil {
		return nil, err
	}
	return r.svc.UpdateCard(ctx, id, in)
}

func (r *mutationResolver) testKanbanWebhook(ctx context.Context) (*model.KanbanWebhookTest, error) {
	res, err := r.svc.TestKanbanWebhook(ctx)
	if err != nil {
		return nil, err
	}
	out := &model.KanbanWebhookTest{Success: res.OK(),
		ResponseCode: res.Status, ResponseBody: res.Body}
	if res.Err != "" {
		out.Error = &res.Err
	}
	return out, nil
}

func (r *mutationResolver) importCards(ctx context.Context, funnelID int, file graphql.Upload, mapping map[string]any, defaultStage string) (*model.KanbanImportResult, error) {
	columns, err := columnMapping(mapping)
	if err != nil {
		return nil, err
	}
	header, rows, err := kanban.ParseCSV(file.File)
	if err != nil {
		return nil, err
	}
	res, err := r.svc.ImportCards(ctx, kanban.ImportInput{FunnelID: funnelID, DefaultStage: defaultStage,
		Mapping: columns, Header: header, Rows: rows})
	if err != nil {
		return nil, err
	}
	out := &model.KanbanImportResult{Total: res.Total, Created: res.Created, Errors: []*model.KanbanImportError{}}
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, &model.KanbanImportError{Row: e.Row, Error: e.Error})
	}
	return out, nil
}

// previewImport reads file as importCards would and previews it.
func previewImport(file graphql.Upload) (*model.KanbanImportPreview, error) {
	header, rows, err := kanban.ParseCSV(file.File)
	if err != nil {
		return nil, err
	}
	p := kanban.PreviewImport(header, rows)
	return &model.KanbanImportPreview{Columns: p.Columns, Rows: p.Rows, TotalRows: p.Total, Targets: p.Targets}, nil
}

func reorderEntries(positions []*model.KanbanPositionInput) []kanban.ReorderEntry {
	entries := make([]kanban.ReorderEntry, 0, len(positions))
	for _, p := range positions {
		entries = append(entries, kanban.ReorderEntry{ID: p.ID, Position: p.Position, Stage: p.Stage})
	}
	return entries
}

func agentBotInput(in model.AgentBotInput) inboxes.AgentBotInput {
	return inboxes.AgentBotInput{Name: in.Name, Description: in.Description, OutgoingURL: in.OutgoingURL, BotConfig: in.BotConfig}
}

func labelInput(in model.LabelInput) contacts.LabelInput {
	return contacts.LabelInput{Title: in.Title, Description: in.Description, Color: in.Color, ShowOnSidebar: in.ShowOnSidebar}
}

func agentInput(in model.AgentInput) accounts.AgentInput {
	return accounts.AgentInput{Name: in.Name, Email: in.Email, Role: in.Role, Availability: in.Availability, AutoOffline: in.AutoOffline}
}

func teamInput(in model.TeamInput) accounts.TeamInput {
	return accounts.TeamInput{Name: in.Name, Description: in.Description, AllowAutoAssign: in.AllowAutoAssign}
}
