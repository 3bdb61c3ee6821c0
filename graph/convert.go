package graph

import (
	"encoding/json"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func contactPage(p *ops.Page[*ent.Contact]) *model.ContactPage {
	if p == nil {
		return nil
	}
	return &model.ContactPage{Nodes: p.Items, TotalCount: p.Total, Page: p.Page, HasMore: p.HasMore}
}

func filterConditions(in []*model.FilterConditionInput) []ops.FilterCondition {
	out := make([]ops.FilterCondition, len(in))
	for i, c := range in {
		values := make([]any, len(c.Values))
		for j, v := range c.Values {
			values[j] = v
		}
		out[i] = ops.FilterCondition{
			AttributeKey: c.AttributeKey, FilterOperator: c.FilterOperator,
			Values: values, QueryOperator: deref(c.QueryOperator),
		}
	}
	return out
}

func inboxInput(in model.InboxInput) ops.InboxInput {
	return ops.InboxInput{
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
func channelInput(in *model.ChannelInput) *ops.ChannelInput {
	if in == nil {
		return nil
	}
	ch := &ops.ChannelInput{
		Type: in.Type, WebhookURL: in.WebhookURL, HMACMandatory: in.HmacMandatory,
		PhoneNumber: in.PhoneNumber, Provider: in.Provider, Email: in.Email,
		WebsiteURL: in.WebsiteURL, WidgetColor: in.WidgetColor, WelcomeTitle: in.WelcomeTitle,
		MessageTemplates: messageTemplates(in.MessageTemplates),
	}
	if pc := in.ProviderConfig; pc != nil {
		ch.ProviderConfig = &ops.ProviderConfigInput{APIKey: pc.APIKey, PhoneNumberID: pc.PhoneNumberID, BusinessAccountID: pc.BusinessAccountID}
	}
	if sm := in.SMTP; sm != nil {
		ch.SMTP = &ops.SMTPInput{
			Address: sm.Address, Port: sm.Port, Login: sm.Login, Password: sm.Password,
			Domain: sm.Domain, Authentication: sm.Authentication,
			EnableStartTLS: sm.EnableStartTLS, EnableSSLTLS: sm.EnableSsltls,
		}
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

func memberChange(c model.MemberChange) ops.MemberChange {
	switch c {
	case model.MemberChangeReplace:
		return ops.ReplaceMembers
	case model.MemberChangeRemove:
		return ops.RemoveMembers
	}
	return ops.AddMembers
}

func messageInput(in *model.MessageInput) *ops.MessageInput {
	if in == nil {
		return nil
	}
	return &ops.MessageInput{
		Content: in.Content, MessageType: deref(in.MessageType), ContentType: deref(in.ContentType),
		Private: deref(in.Private), ContentAttributes: in.ContentAttributes, TemplateParams: in.TemplateParams,
	}
}

func scheduleInput(in model.ScheduledMessageInput) ops.ScheduleInput {
	out := ops.ScheduleInput{
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

func funnelInput(in model.FunnelInput) ops.FunnelInput {
	out := ops.FunnelInput{Name: in.Name, Description: in.Description, Active: in.Active, Settings: in.Settings}
	if in.Stages != nil {
		stages := make([]ops.StageInput, 0, len(in.Stages))
		for _, st := range in.Stages {
			stages = append(stages, ops.StageInput{ID: st.ID, Name: st.Name, Slug: st.Slug, Color: st.Color, Description: st.Description})
		}
		out.Stages = &stages
	}
	return out
}

func cardInput(in model.KanbanItemInput) (ops.CardInput, error) {
	out := ops.CardInput{
		FunnelID: in.FunnelID, Stage: in.Stage, Position: in.Position, ConversationDisplayID: in.ConversationDisplayID,
		Title: in.Title, Description: in.Description, Priority: in.Priority, Value: in.Value, Details: in.Details,
		AssignedAgents: optionalList(in.AssignedAgents),
	}
	var err error
	if in.Currency != nil {
		out.Currency, err = ops.CurrencyOf(map[string]any(in.Currency), "currency")
	}
	return out, err
}

func checklistInput(in model.ChecklistItemInput) ops.ChecklistInput {
	return ops.ChecklistInput{Text: in.Text, Completed: in.Completed, DueDate: in.DueDate, AgentID: in.AgentID}
}

func cardFilter(in *model.KanbanItemsFilter, page int) ops.CardFilter {
	f := ops.CardFilter{Page: page}
	if in == nil {
		return f
	}
	f.FunnelID, f.Stage, f.AgentID = deref(in.FunnelID), deref(in.Stage), deref(in.AgentID)
	f.ConversationDisplayID, f.Query = deref(in.ConversationDisplayID), deref(in.Query)
	f.Priorities, f.Statuses = in.Priorities, in.Statuses
	f.ValueMin, f.ValueMax, f.CreatedFrom, f.CreatedTo = in.ValueMin, in.ValueMax, in.CreatedFrom, in.CreatedTo
	return f
}

func automationInput(in model.KanbanAutomationInput) ops.AutomationInput {
	return ops.AutomationInput{
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
