package wire

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/schema/schematype"
)

func ptr[T any](v T) *T { return &v }

var (
	created = time.Date(2030, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	updated = time.Date(2030, 1, 2, 4, 0, 0, 0, time.FixedZone("CET", 3600))
)

// roundTrip is h as a client decodes it.
func roundTrip(t *testing.T, h any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestTime(t *testing.T) {
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{created, "2030-01-02T03:04:05.600Z"},
		{updated, "2030-01-02T03:00:00.000Z"}, // converted to UTC
		{time.Date(2030, 1, 2, 3, 4, 5, 999_999_999, time.UTC), "2030-01-02T03:04:05.999Z"},
	} {
		if got := Time(tc.in); got != tc.want {
			t.Errorf("Time(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if TimePtr(nil) != nil || TimePtr(&created) != "2030-01-02T03:04:05.600Z" {
		t.Error("TimePtr")
	}
}

func contact() *ent.Contact {
	return &ent.Contact{ID: 5, Name: "Ada", Email: ptr("ada@acme.test"), AvatarURL: "", CreatedAt: created, UpdatedAt: updated}
}

func apiInbox() *ent.Inbox {
	return &ent.Inbox{ID: 3, Name: "API", ChannelType: inbox.ChannelTypeAPI, AvatarURL: "https://cdn.acme.test/a.png"}
}

// Chatwoot's contact (models/_contact): its keys, nulls for what is not
// set (never missing), empty objects and lists (never null), and
// contact_inboxes only when they were loaded, each {source_id, inbox_slim}.
func TestContactShape(t *testing.T) {
	got := roundTrip(t, Contact(contact()))
	wantKeys := []string{"additional_attributes", "availability_status", "avatar_url", "blocked", "created_at",
		"custom_attributes", "email", "id", "identifier", "labels", "last_activity_at", "name", "phone_number",
		"thumbnail", "updated_at"}
	if !reflect.DeepEqual(keys(got), wantKeys) {
		t.Errorf("keys %v, want %v", keys(got), wantKeys)
	}
	for k, want := range map[string]any{
		"id": 5.0, "name": "Ada", "email": "ada@acme.test", "phone_number": nil, "identifier": nil,
		"blocked": false, "thumbnail": "", "availability_status": "offline", "last_activity_at": nil,
		"additional_attributes": map[string]any{}, "custom_attributes": map[string]any{}, "labels": []any{},
		"created_at": "2030-01-02T03:04:05.600Z", "updated_at": "2030-01-02T03:00:00.000Z",
	} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %#v, want %#v", k, got[k], want)
		}
	}

	ct := contact()
	ct.Edges.ContactInboxes = []*ent.ContactInbox{{SourceID: "src-1", Edges: ent.ContactInboxEdges{Inbox: apiInbox()}}}
	got = roundTrip(t, Contact(ct))
	want := []any{map[string]any{"source_id": "src-1", "inbox": map[string]any{
		"id": 3.0, "avatar_url": "https://cdn.acme.test/a.png", "channel_id": 3.0, "name": "API",
		"channel_type": "Channel::Api", "provider": nil,
	}}}
	if !reflect.DeepEqual(got["contact_inboxes"], want) {
		t.Errorf("contact_inboxes %#v, want %#v", got["contact_inboxes"], want)
	}
	ct.Edges.ContactInboxes = []*ent.ContactInbox{}
	if got := roundTrip(t, Contact(ct)); !reflect.DeepEqual(got["contact_inboxes"], []any{}) {
		t.Errorf("loaded but none: contact_inboxes %#v, want []", got["contact_inboxes"])
	}
}

// A WhatsApp inbox names its provider; every channel type has Chatwoot's
// class name.
func TestInboxSlim(t *testing.T) {
	wa := &ent.Inbox{ID: 4, Name: "WA", ChannelType: inbox.ChannelTypeWhatsapp, Channel: schematype.Channel{Provider: "whatsapp_cloud"}}
	got := roundTrip(t, InboxSlim(wa))
	if got["channel_type"] != "Channel::Whatsapp" || got["provider"] != "whatsapp_cloud" {
		t.Errorf("whatsapp inbox_slim %v", got)
	}
	for typ, class := range map[inbox.ChannelType]string{
		inbox.ChannelTypeAPI: "Channel::Api", inbox.ChannelTypeWhatsapp: "Channel::Whatsapp", inbox.ChannelTypeEmail: "Channel::Email",
		inbox.ChannelTypeWebWidget: "Channel::WebWidget", inbox.ChannelTypeSms: "Channel::Sms",
		inbox.ChannelTypeTelegram: "Channel::Telegram", inbox.ChannelTypeLine: "Channel::Line",
	} {
		if got := roundTrip(t, InboxSlim(&ent.Inbox{ChannelType: typ}))["channel_type"]; got != class {
			t.Errorf("channel type %s is %v, want %s", typ, got, class)
		}
		if err := inbox.ChannelTypeValidator(typ); err != nil {
			t.Errorf("%s is no channel type of the schema: %v", typ, err)
		}
	}
}

// Chatwoot's conversation (partials/_conversation): the display id as id,
// the contact (without its inboxes) as meta.sender, the channel class as
// meta.channel, null for unset times and ids, [] for no messages.
func TestConversationShape(t *testing.T) {
	ct := contact()
	ct.Edges.ContactInboxes = []*ent.ContactInbox{{SourceID: "src-1"}} // loaded, but not part of meta.sender
	cv := &ent.Conversation{ID: 900, DisplayID: 12, UUID: "c0ffee", AccountID: 1, InboxID: 3, ContactID: 5,
		Status: conversation.StatusSnoozed, SnoozedUntil: &updated, LastActivityAt: created, CreatedAt: created, UpdatedAt: updated,
		Edges: ent.ConversationEdges{Contact: ct, Inbox: apiInbox()}}
	got := roundTrip(t, Conversation(cv))
	for k, want := range map[string]any{
		"id": 12.0, "uuid": "c0ffee", "account_id": 1.0, "inbox_id": 3.0, "status": "snoozed",
		"snoozed_until": "2030-01-02T03:00:00.000Z", "priority": nil, "assignee_id": nil, "team_id": nil,
		"agent_last_seen_at": nil, "waiting_since": nil, "first_reply_created_at": nil,
		"labels": []any{}, "messages": []any{}, "timestamp": "2030-01-02T03:04:05.600Z",
		"last_activity_at": "2030-01-02T03:04:05.600Z", "can_reply": true, "muted": false, "unread_count": 0.0,
	} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %#v, want %#v", k, got[k], want)
		}
	}
	meta, _ := got["meta"].(map[string]any)
	sender, _ := meta["sender"].(map[string]any)
	if meta["channel"] != "Channel::Api" || meta["hmac_verified"] != false || sender["id"] != 5.0 {
		t.Errorf("meta %v", meta)
	}
	if _, ok := sender["contact_inboxes"]; ok {
		t.Error("meta.sender carries contact_inboxes")
	}
}

// Chatwoot's message (models/_message): message_type as its integer, the
// conversation's display id, sender_type as the Rails class name; the
// delivery object only on messages a channel delivers.
func TestMessageShape(t *testing.T) {
	m := &ent.Message{ID: 77, ConversationID: 900, InboxID: 3, Content: ptr("Hi"), MessageType: message.MessageTypeOutgoing,
		ContentType: message.ContentTypeText, Status: message.StatusSent, SenderType: ptr(message.SenderTypeUser), SenderID: ptr(8),
		CreatedAt: created, UpdatedAt: updated}
	got := roundTrip(t, Message(m, 12))
	for k, want := range map[string]any{
		"id": 77.0, "conversation_id": 12.0, "message_type": 1.0, "content_type": "text", "status": "sent",
		"sender_type": "User", "sender_id": 8.0, "source_id": nil, "private": false, "content_attributes": map[string]any{},
		"created_at": "2030-01-02T03:04:05.600Z",
	} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %#v, want %#v", k, got[k], want)
		}
	}
	if _, ok := got["delivery"]; ok {
		t.Errorf("a message never sent to a channel has delivery %v", got["delivery"])
	}
	for typ, code := range map[message.MessageType]float64{
		message.MessageTypeIncoming: 0, message.MessageTypeOutgoing: 1, message.MessageTypeActivity: 2, message.MessageTypeTemplate: 3,
	} {
		m.MessageType = typ
		if got := roundTrip(t, Message(m, 12))["message_type"]; got != code {
			t.Errorf("message_type %s = %v, want %v", typ, got, code)
		}
	}
	for st, class := range map[message.SenderType]any{
		message.SenderTypeContact: "Contact", message.SenderTypeAgentBot: "AgentBot",
	} {
		if got := SenderClassName(&st); got != class {
			t.Errorf("sender_type %s = %v, want %v", st, got, class)
		}
	}
	if SenderClassName(nil) != nil {
		t.Error("a message without a sender has a sender_type")
	}
}

func TestMessageDeliveryState(t *testing.T) {
	due := created
	for _, tc := range []struct {
		name string
		m    ent.Message
		want map[string]any
	}{
		{"pending", ent.Message{NextDeliveryAt: &due, Status: message.StatusSent},
			map[string]any{"state": "pending", "attempts": 0.0, "last_error": "", "next_attempt_at": "2030-01-02T03:04:05.600Z"}},
		{"retrying", ent.Message{NextDeliveryAt: &due, DeliveryAttempts: 2, DeliveryError: "webhook answered 503", Status: message.StatusSent},
			map[string]any{"state": "retrying", "attempts": 2.0, "last_error": "webhook answered 503", "next_attempt_at": "2030-01-02T03:04:05.600Z"}},
		{"delivered", ent.Message{DeliveryAttempts: 1, Status: message.StatusDelivered},
			map[string]any{"state": "delivered", "attempts": 1.0, "last_error": "", "next_attempt_at": nil}},
		{"failed", ent.Message{DeliveryAttempts: 5, DeliveryError: "webhook answered 404", Status: message.StatusFailed},
			map[string]any{"state": "failed", "attempts": 5.0, "last_error": "webhook answered 404", "next_attempt_at": nil}},
	} {
		got := roundTrip(t, Message(&tc.m, 1))["delivery"]
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: delivery %#v, want %#v", tc.name, got, tc.want)
		}
	}
}

// A message webhook (Chatwoot's webhook_data) spells message_type as a word
// and carries the account, conversation, inbox and sender beside it.
func TestMessageEventShape(t *testing.T) {
	cv := &ent.Conversation{DisplayID: 12, Status: conversation.StatusOpen, Edges: ent.ConversationEdges{Inbox: apiInbox(), Contact: contact()}}
	m := &ent.Message{ID: 77, Content: ptr("Hi"), MessageType: message.MessageTypeIncoming, ContentType: message.ContentTypeText,
		Status: message.StatusSent, SenderType: ptr(message.SenderTypeContact), SenderID: ptr(5), CreatedAt: created}
	got := roundTrip(t, MessageEvent("message_created", m, cv, &ent.Account{ID: 1, Name: "Acme"}))
	for k, want := range map[string]any{
		"event": "message_created", "id": 77.0, "message_type": "incoming", "content": "Hi",
		"account": map[string]any{"id": 1.0, "name": "Acme"}, "inbox": map[string]any{"id": 3.0, "name": "API"},
		"sender": map[string]any{"id": 5.0, "type": "contact"}, "created_at": "2030-01-02T03:04:05.600Z",
	} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("%s = %#v, want %#v", k, got[k], want)
		}
	}
	if conv, _ := got["conversation"].(map[string]any); conv["id"] != 12.0 {
		t.Errorf("conversation %v, want the conversation object with display id 12", got["conversation"])
	}
	if _, ok := got["attachments"]; ok {
		t.Error("a message without attachments has an attachments key")
	}
}
