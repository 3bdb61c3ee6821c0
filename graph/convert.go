package graph

import (
	"encoding/json"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/wire"
)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func contactPage(p *core.Page[*ent.Contact]) *model.ContactPage {
	if p == nil {
		return nil
	}
	return &model.ContactPage{Nodes: p.Items, TotalCount: p.Total, Page: p.Page, HasMore: p.HasMore}
}

func filterConditions(in []*model.FilterConditionInput) []contacts.FilterCondition {
	out := make([]contacts.FilterCondition, len(in))
	for i, c := range in {
		values := make([]any, len(c.Values))
		for j, v := range c.Values {
			values[j] = v
		}
		out[i] = contacts.FilterCondition{
			AttributeKey: c.AttributeKey, FilterOperator: c.FilterOperator,
			Values: values, QueryOperator: deref(c.QueryOperator),
		}
	}
	return out
}

func inboxInput(in model.InboxInput) inboxes.InboxInput {
	return inboxes.InboxInput{
		Name: in.Name, Channel: channelInput(in.Channel),
		GreetingEnabled: in.GreetingEnabled, GreetingMessage: in.GreetingMessage,
		EnableAutoAssignment: in.EnableAutoAssignment, EnableEmailCollect: in.EnableEmailCollect,
		CSATSurveyEnabled: in.CsatSurveyEnabled, WorkingHoursEnabled: in.WorkingHoursEnabled,
		OutOfOfficeMessage: in.OutOfOfficeMessage, Timezone: in.Timezone,
		AllowMessagesAfterResolved: in.AllowMessagesAfterResolved, LockToSingleConversation: in.LockToSingleConversation,
		SenderNameType: in.SenderNameType, BusinessName: in.BusinessName, AvatarURL: in.AvatarURL,
	}
}

// channelInput passes the sent settings on as they are: nil fields were not
// sent, so that updateInbox keeps their stored values.
func channelInput(in *model.ChannelInput) *inboxes.ChannelInput {
	if in == nil {
		return nil
	}
	ch := &inboxes.ChannelInput{
		Type: in.Type, WebhookURL: in.WebhookURL, HMACMandatory: in.HmacMandatory,
		PhoneNumber: in.PhoneNumber, Provider: in.Provider, Email: in.Email,
		WebsiteURL: in.WebsiteURL, WidgetColor: in.WidgetColor, WelcomeTitle: in.WelcomeTitle,
		MessageTemplates: messageTemplates(in.MessageTemplates),
	}
	if pc := in.ProviderConfig; pc != nil {
		ch.ProviderConfig = &inboxes.ProviderConfigInput{APIKey: pc.APIKey, PhoneNumberID: pc.PhoneNumberID, BusinessAccountID: pc.BusinessAccountID,
			WebhookVerifyToken: pc.WebhookVerifyToken, AppSecret: pc.AppSecret}
	}
	if sm := in.SMTP; sm != nil {
		ch.SMTP = &inboxes.SMTPInput{
			Address: sm.Address, Port: sm.Port, Login: sm.Login, Password: sm.Password,
			Domain: sm.Domain, Authentication: sm.Authentication,
			EnableStartTLS: sm.EnableStartTLS, EnableSSLTLS: sm.EnableSsltls,
		}
	}
	if im := in.Imap; im != nil {
		ch.IMAP = &inboxes.IMAPInput{Enabled: im.Enabled, Address: im.Address, Port: im.Port, Login: im.Login,
			Password: im.Password, EnableSSL: im.EnableSsl}
	}
	return ch
}

// messageTemplates reads WhatsApp Cloud template objects; a template that
// does not fit the shape is kept empty-named, which the operation rejects.
func messageTemplates(in []map[string]any) []schematype.MessageTemplate {
	if in == nil {
		return nil
	}
	out := make([]schematype.MessageTemplate, len(in))
	for i, m := range in {
		raw, _ := json.Marshal(m)
		_ = json.Unmarshal(raw, &out[i])
	}
	return out
}

func memberChange(c model.MemberChange) accounts.MemberChange {
	switch c {
	case model.MemberChangeReplace:
		return accounts.ReplaceMembers
	case model.MemberChangeRemove:
		return accounts.RemoveMembers
	}
	return accounts.AddMembers
}

func messageInput(in *model.MessageInput) *conversations.MessageInput {
	if in == nil {
		return nil
	}
	return &conversations.MessageInput{
		Content: in.Content, MessageType: deref(in.MessageType), ContentType: deref(in.ContentType),
		Private: deref(in.Private), ContentAttributes: in.ContentAttributes, TemplateParams: in.TemplateParams,
	}
}

func scheduleInput(in model.ScheduledMessageInput) schedules.ScheduleInput {
	out := schedules.ScheduleInput{
		ConversationID: in.ConversationDisplayID, InboxID: in.InboxID, ContactID: in.ContactID,
		Title: in.Title, Content: in.Content, ScheduledAt: in.ScheduledAt, Private: in.Private,
		TemplateParams: in.TemplateParams, ContentAttributes: in.ContentAttributes,
		RecurrenceType: in.RecurrenceType, RecurrenceInterval: in.RecurrenceInterval,
		RecurrenceEndType: in.RecurrenceEndType, RecurrenceEndDate: in.RecurrenceEndDate,
		RecurrenceMaxOccurrences: in.RecurrenceMaxOccurrences, RecurrenceDays: optionalList(in.RecurrenceDays),
	}
	return out
}

// fileAttachments are attachments as GraphQL shows them, with signed
// download paths.
func (r *Resolver) fileAttachments(atts []*ent.Attachment) []*model.FileAttachment {
	out := make([]*model.FileAttachment, 0, len(atts))
	for _, a := range atts {
		exp, sig := r.svc.SignAttachment(a)
		out = append(out, &model.FileAttachment{
			ID: a.ID, FileType: string(a.FileType), ContentType: a.ContentType, FileName: a.FileName,
			FileSize: int(a.FileSize), DataURL: wire.AttachmentPath(a, exp, sig),
		})
	}
	return out
}

func funnelInput(in model.FunnelInput) kanban.FunnelInput {
	out := kanban.FunnelInput{Name: in.Name, Description: in.Description, Active: in.Active, Settings: in.Settings}
	if in.Stages != nil {
		stages := make([]kanban.StageInput, 0, len(in.Stages))
		for _, st := range in.Stages {
			stages = append(stages, kanban.StageInput{ID: st.ID, Name: st.Name, Slug: st.Slug, Color: st.Color, Description: st.Description})
		}
		out.Stages = &stages
	}
	return out
}

func cardInput(in model.KanbanItemInput) (kanban.CardInput, error) {
	out := kanban.CardInput{
		FunnelID: in.FunnelID, Stage: in.Stage, Position: in.Position, ConversationDisplayID: in.ConversationDisplayID,
		Title: in.Title, Description: in.Description, Priority: in.Priority, Value: in.Value, Details: in.Details,
		AssignedAgents: optionalList(in.AssignedAgents),
	}
	var err error
	if in.Currency != nil {
		out.Currency, err = kanban.CurrencyOf(map[string]any(in.Currency), "currency")
	}
	return out, err
}

func checklistInput(in model.ChecklistItemInput) kanban.ChecklistInput {
	return kanban.ChecklistInput{Text: in.Text, Completed: in.Completed, DueDate: in.DueDate, AgentID: in.AgentID}
}

func automationInput(in model.KanbanAutomationInput) kanban.AutomationInput {
	return kanban.AutomationInput{
		Name: in.Name, FunnelID: in.FunnelID, TriggerType: in.TriggerType, TriggerConfig: in.TriggerConfig,
		ActionType: in.ActionType, ActionConfig: in.ActionConfig, Enabled: in.Enabled,
	}
}

// columnMapping reads an import's column → card field mapping as REST
// reads its mappings.
func columnMapping(m map[string]any) (map[string]string, error) {
	return coerce.StringMap(m, "mapping")
}

// optionalList tells a list not sent (nil) from one sent empty.
func optionalList[T any](xs []T) *[]T {
	if xs == nil {
		return nil
	}
	return &xs
}

func customAttributeInput(in model.CustomAttributeDefinitionInput) contacts.CustomAttributeInput {
	return contacts.CustomAttributeInput{DisplayName: in.AttributeDisplayName, Key: in.AttributeKey,
		DisplayType: in.AttributeDisplayType, Model: in.AttributeModel, Description: in.AttributeDescription,
		Values: in.AttributeValues, RegexPattern: in.RegexPattern, RegexCue: in.RegexCue}
}

// cardSearch is searchKanbanItems' input as the cards' filter.
func cardSearch(in *model.KanbanItemSearchInput, page, perPage int) kanban.CardFilter {
	f := kanban.CardFilter{Page: page, PerPage: perPage}
	if in == nil {
		return f
	}
	f.Query, f.FunnelID, f.Stage, f.AgentID = deref(in.Query), deref(in.FunnelID), deref(in.Stage), deref(in.AgentID)
	f.ConversationDisplayID, f.ContactID = deref(in.ConversationDisplayID), deref(in.ContactID)
	f.Priorities, f.Statuses, f.ValueMin, f.ValueMax = in.Priorities, in.Statuses, in.ValueMin, in.ValueMax
	f.CreatedFrom, f.CreatedTo = in.CreatedFrom, in.CreatedTo
	return f
}

// assignment is assignConversation's arguments as the operation's
// Assignment: an id, or a flag that clears (0), never both.
func assignment(assigneeID, teamID *int, unassign, removeTeam *bool) (conversations.Assignment, error) {
	in := conversations.Assignment{AssigneeID: assigneeID, TeamID: teamID}
	for _, c := range []struct {
		id    **int
		clear *bool
		field string
	}{{&in.AssigneeID, unassign, "assignee_id"}, {&in.TeamID, removeTeam, "team_id"}} {
		if c.clear == nil || !*c.clear {
			continue
		}
		if *c.id != nil {
			return in, apperr.Invalid("Name an id or clear it, not both", c.field)
		}
		zero := 0
		*c.id = &zero
	}
	return in, nil
}
