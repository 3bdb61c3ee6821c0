package whatsapp

import (
	"fmt"
	"strconv"
	"strings"
)

// maxSharedContacts bounds the contact cards one message keeps.
const maxSharedContacts = 20

// mediaTypes are the message types whose body is a file in the Graph API.
var mediaTypes = map[string]bool{"image": true, "audio": true, "video": true, "document": true, "sticker": true}

// content is what a message shows: its text and its content_attributes
// (nil when none). ok is false for a message with nothing to show (a
// removed reaction). Media is fetched elsewhere (see fetchMedia).
func (m *inMessage) content() (text string, attrs map[string]any, ok bool) {
	attrs = map[string]any{}
	if m.Context != nil && m.Context.ID != "" {
		attrs["in_reply_to_external_id"] = m.Context.ID
	}
	text, ok = m.typedContent(attrs)
	if len(attrs) == 0 {
		attrs = nil
	}
	return text, attrs, ok
}

// typedContent fills attrs with what the message's type adds and answers its
// text.
func (m *inMessage) typedContent(attrs map[string]any) (string, bool) {
	switch {
	case m.Type == "text" && m.Text != nil:
		return m.Text.Body, true
	case mediaTypes[m.Type] && m.media() != nil:
		return m.media().Caption, true
	case m.Type == "location" && m.Location != nil:
		return locationContent(m.Location, attrs), true
	case m.Type == "contacts" && len(m.Contacts) > 0:
		return contactsContent(m.Contacts, attrs), true
	case m.Type == "interactive" && m.Interactive != nil && m.interactiveReply() != nil:
		r := m.interactiveReply()
		attrs["interactive"] = map[string]any{"type": m.Interactive.Type, "id": r.ID, "title": r.Title, "description": r.Description}
		return r.Title, true
	case m.Type == "button" && m.Button != nil:
		attrs["interactive"] = map[string]any{"type": "button", "id": m.Button.Payload, "title": m.Button.Text}
		return m.Button.Text, true
	case m.Type == "reaction" && m.Reaction != nil:
		// An empty emoji takes a reaction back: nothing to show.
		attrs["is_reaction"] = true
		attrs["in_reply_to_external_id"] = m.Reaction.MessageID
		return m.Reaction.Emoji, strings.TrimSpace(m.Reaction.Emoji) != ""
	}
	attrs["unsupported_type"] = m.Type
	return fmt.Sprintf("This WhatsApp message (type %q) cannot be shown here; see it in WhatsApp on the phone.", m.Type), true
}

// media is the file part of a media message (nil for other types).
func (m *inMessage) media() *media {
	switch m.Type {
	case "image":
		return m.Image
	case "audio":
		return m.Audio
	case "video":
		return m.Video
	case "document":
		return m.Document
	case "sticker":
		return m.Sticker
	}
	return nil
}

func (m *inMessage) interactiveReply() *reply {
	switch m.Interactive.Type {
	case "button_reply":
		return m.Interactive.ButtonReply
	case "list_reply":
		return m.Interactive.ListReply
	}
	return nil
}

// locationContent is a shared location as text (its name, address and
// coordinates), kept whole in attrs.location.
func locationContent(l *location, attrs map[string]any) string {
	attrs["location"] = map[string]any{"latitude": l.Latitude, "longitude": l.Longitude, "name": l.Name, "address": l.Address}
	coords := strconv.FormatFloat(l.Latitude, 'f', -1, 64) + ", " + strconv.FormatFloat(l.Longitude, 'f', -1, 64)
	return "Location: " + joinNonBlank([]string{l.Name, l.Address, coords}, " · ")
}

// contactsContent is shared contact cards as text (their names), the cards
// kept in attrs.contacts as WhatsApp sent them.
func contactsContent(cards []map[string]any, attrs map[string]any) string {
	if len(cards) > maxSharedContacts {
		cards = cards[:maxSharedContacts]
	}
	names := make([]string, 0, len(cards))
	for _, c := range cards {
		name, _ := c["name"].(map[string]any)
		formatted, _ := name["formatted_name"].(string)
		names = append(names, formatted)
	}
	attrs["contacts"] = cards
	text := joinNonBlank(names, ", ")
	if text == "" {
		text = fmt.Sprintf("%d contact(s)", len(cards))
	}
	return "Shared contact: " + text
}

func joinNonBlank(parts []string, sep string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
