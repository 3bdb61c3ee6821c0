package conversations

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/apperr"
)

func ptr[T any](v T) *T { return &v }

// invalid checks that err is a 422 on fields with message.
func invalid(t *testing.T, err error, message string, fields ...string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid {
		t.Fatalf("got %#v, want an invalid-input error", err)
	}
	if !reflect.DeepEqual(ae.Fields, fields) || (message != "" && ae.Message != message) {
		t.Errorf("got %q on %v, want %q on %v", ae.Message, ae.Fields, message, fields)
	}
}

func whatsAppInbox() *ent.Inbox {
	return &ent.Inbox{ChannelType: inbox.ChannelTypeWhatsapp, Channel: schematype.Channel{MessageTemplates: []schematype.MessageTemplate{
		{Name: "order_update", Language: "en_US", Status: "APPROVED", Components: []schematype.TemplateComponent{
			{Type: "HEADER", Text: "Order {{9}}"}, // header placeholders are not processed_params
			{Type: "BODY", Text: "Hi {{1}}, order {{2}} ships {{3}}. Thanks {{1}}!"},
			{Type: "FOOTER", Text: "Acme"},
		}},
		{Name: "order_update", Language: "de", Status: "approved", Components: []schematype.TemplateComponent{
			{Type: "body", Text: "Hallo {{1}}"},
		}},
		{Name: "welcome", Language: "en_US", Status: "APPROVED", Components: []schematype.TemplateComponent{
			{Type: "BODY", Text: "Welcome!"},
		}},
		{Name: "draft", Language: "en_US", Status: "PENDING", Components: []schematype.TemplateComponent{
			{Type: "BODY", Text: "Not yet"},
		}},
	}}}
}

// Template params must name an approved template of the inbox (in the
// language, when one is sent) and give exactly its body's placeholders.
func TestCheckTemplateParams(t *testing.T) {
	ib := whatsAppInbox()
	for _, tc := range []struct {
		name    string
		params  map[string]any
		wantErr string // "" for accepted
	}{
		{"exact body placeholders", map[string]any{"name": "order_update", "language": "en_US",
			"processed_params": map[string]any{"1": "Ada", "2": "#42", "3": "today"}}, ""},
		{"other language, its own body", map[string]any{"name": "order_update", "language": "de",
			"processed_params": map[string]any{"1": "Ada"}}, ""},
		{"no language takes the first approved", map[string]any{"name": "order_update",
			"processed_params": map[string]any{"1": "Ada", "2": "#42", "3": "today"}}, ""},
		{"no placeholders, no params", map[string]any{"name": "welcome", "language": "en_US"}, ""},
		{"no name", map[string]any{"language": "en_US"}, "Template params need the template's name"},
		{"name not a string", map[string]any{"name": 7}, "Template params need the template's name"},
		{"unknown template", map[string]any{"name": "nope", "language": "en_US"},
			`No approved template "nope" (language "en_US") in this inbox`},
		{"unknown language", map[string]any{"name": "welcome", "language": "fr"},
			`No approved template "welcome" (language "fr") in this inbox`},
		{"not approved", map[string]any{"name": "draft", "language": "en_US"},
			`No approved template "draft" (language "en_US") in this inbox`},
		{"params missing", map[string]any{"name": "order_update", "language": "en_US"},
			`Template "order_update" needs processed_params for 1, 2, 3`},
		{"a param short", map[string]any{"name": "order_update", "language": "en_US",
			"processed_params": map[string]any{"1": "Ada", "2": "#42"}},
			`Template "order_update" takes parameters [1 2 3], got [1 2]`},
		{"a param too many", map[string]any{"name": "welcome", "language": "en_US",
			"processed_params": map[string]any{"1": "x"}},
			`Template "welcome" takes parameters [], got [1]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTemplateParams(ib, tc.params)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			invalid(t, err, tc.wantErr, "template_params")
		})
	}
}

// A free-form outgoing message to WhatsApp needs the contact's last
// message within 24 hours; outside the window only a template goes. Other
// channels have no window.
func TestCheckReplyWindow(t *testing.T) {
	now := time.Date(2030, 1, 2, 12, 0, 0, 0, time.UTC)
	wa := whatsAppInbox()
	template := map[string]any{"name": "welcome", "language": "en_US"}
	badTemplate := map[string]any{"name": "nope"}
	incoming := func(ago time.Duration) *ent.Conversation {
		return &ent.Conversation{LastIncomingAt: ptr(now.Add(-ago))}
	}
	const closed = "The 24-hour reply window of this WhatsApp conversation is closed: send template_params naming an approved template"
	for _, tc := range []struct {
		name    string
		ib      *ent.Inbox
		cv      *ent.Conversation
		params  map[string]any
		wantErr string
	}{
		{"inside the window", wa, incoming(23*time.Hour + 59*time.Minute), nil, ""},
		{"exactly 24 hours", wa, incoming(24 * time.Hour), nil, closed},
		{"long ago", wa, incoming(72 * time.Hour), nil, closed},
		{"never wrote", wa, &ent.Conversation{}, nil, closed},
		{"template outside the window", wa, incoming(72 * time.Hour), template, ""},
		{"template is checked inside the window too", wa, incoming(time.Hour), badTemplate,
			`No approved template "nope" (language "") in this inbox`},
		{"api inbox has no window", &ent.Inbox{ChannelType: inbox.ChannelTypeAPI}, &ent.Conversation{}, nil, ""},
		{"email inbox ignores params", &ent.Inbox{ChannelType: inbox.ChannelTypeEmail}, &ent.Conversation{}, badTemplate, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkReplyWindow(tc.ib, tc.cv, tc.params, now)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			invalid(t, err, tc.wantErr, "template_params")
		})
	}
}

// Only a snoozed conversation keeps a wake-up time.
func TestSnoozedUntil(t *testing.T) {
	until := ptr(time.Date(2030, 1, 3, 8, 0, 0, 0, time.UTC))
	for _, tc := range []struct {
		status conversation.Status
		until  *time.Time
		want   *time.Time
	}{
		{conversation.StatusSnoozed, until, until},
		{conversation.StatusSnoozed, nil, nil},
		{conversation.StatusOpen, until, nil},
		{conversation.StatusPending, until, nil},
		{conversation.StatusResolved, until, nil},
	} {
		if got := snoozedUntil(tc.status, tc.until); got != tc.want {
			t.Errorf("snoozedUntil(%s, %v) = %v, want %v", tc.status, tc.until, got, tc.want)
		}
	}
}

// The list filters: the status defaults to open, "all" drops it, other
// values must be a status; each filter sent adds one condition.
func TestConversationFilter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     ConversationListParams
		preds int
		err   bool
	}{
		{"default is open", ConversationListParams{}, 1, false},
		{"open", ConversationListParams{Status: "open"}, 1, false},
		{"all", ConversationListParams{Status: "all"}, 0, false},
		{"snoozed", ConversationListParams{Status: "snoozed"}, 1, false},
		{"every filter", ConversationListParams{Status: "pending", InboxID: 1, TeamID: 2, Labels: []string{"vip", "billing"}}, 4, false},
		{"unknown status", ConversationListParams{Status: "closed"}, 0, true},
		{"status case matters", ConversationListParams{Status: "Open"}, 0, true},
	} {
		preds, err := conversationFilter(tc.p)
		if tc.err {
			invalid(t, err, "Status must be open, resolved, pending, snoozed or all", "status")
			continue
		}
		if err != nil || len(preds) != tc.preds {
			t.Errorf("%s: %d conditions, err %v; want %d", tc.name, len(preds), err, tc.preds)
		}
	}
}

func TestAssigneeFilter(t *testing.T) {
	for _, tc := range []struct {
		t     string
		preds int
	}{{"", 0}, {"all", 0}, {"me", 1}, {"assigned", 1}, {"unassigned", 1}} {
		preds, err := assigneeFilter(tc.t, 5)
		if err != nil || len(preds) != tc.preds {
			t.Errorf("assigneeFilter(%q): %d conditions, err %v; want %d", tc.t, len(preds), err, tc.preds)
		}
	}
	for _, bad := range []string{"mine", "ME", "team"} {
		_, err := assigneeFilter(bad, 5)
		invalid(t, err, "Assignee type must be me, assigned, unassigned or all", "assignee_type")
	}
}

// A referenced record that does not exist is the request's fault (422 on
// the field that named it); any other error passes through.
func TestNotFoundField(t *testing.T) {
	invalid(t, NotFoundField(&ent.NotFoundError{}, "inbox_id", "Inbox"), "Inbox does not exist in this account", "inbox_id")
	other := errors.New("connection reset")
	if err := NotFoundField(other, "inbox_id", "Inbox"); err != other {
		t.Errorf("NotFoundField passed %v on as %v", other, err)
	}
	if err := NotFoundField(nil, "inbox_id", "Inbox"); err != nil {
		t.Errorf("NotFoundField(nil) = %v", err)
	}
}

func TestMessageFields(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         MessageInput
		wantType   message.MessageType
		wantCT     message.ContentType
		wantFields []string
	}{
		{"defaults", MessageInput{Content: ptr("Hi")}, message.MessageTypeOutgoing, message.ContentTypeText, nil},
		{"incoming cards", MessageInput{Content: ptr("Hi"), MessageType: "incoming", ContentType: "cards"},
			message.MessageTypeIncoming, message.ContentTypeCards, nil},
		{"no content", MessageInput{}, "", "", []string{"content"}},
		{"blank content", MessageInput{Content: ptr("  \n")}, "", "", []string{"content"}},
		{"activity is not postable", MessageInput{Content: ptr("Hi"), MessageType: "activity"}, "", "", []string{"message_type"}},
		// A content type the schema knows but the API does not accept.
		{"incoming_email", MessageInput{Content: ptr("Hi"), ContentType: "incoming_email"}, "", "", []string{"content_type"}},
		{"all wrong", MessageInput{MessageType: "template", ContentType: "video"}, "", "",
			[]string{"content", "message_type", "content_type"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := messageFields(tc.in)
			if tc.wantFields != nil {
				invalid(t, err, "", tc.wantFields...)
				return
			}
			if err != nil || f.mt != tc.wantType || f.ct != tc.wantCT {
				t.Errorf("got %s/%s, err %v; want %s/%s", f.mt, f.ct, err, tc.wantType, tc.wantCT)
			}
		})
	}
}
