package rest_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// waMedia is what the fake Graph API serves in the message-type tests.
var waMedia = map[string]graphFile{
	"media-photo":   {mime: "image/jpeg", data: []byte("\xff\xd8\xff jpeg bytes")},
	"media-voice":   {mime: "audio/ogg; codecs=opus", data: []byte("OggS voice")},
	"media-clip":    {mime: "video/mp4", data: []byte("mp4 clip bytes")},
	"media-invoice": {mime: "application/pdf", data: []byte("%PDF-1.7 invoice")},
	"media-sticker": {mime: "image/webp", data: []byte("RIFF webp")},
	"media-gone":    {status: http.StatusNotFound},
	"media-down":    {status: http.StatusServiceUnavailable},
}

// waTypeCase is one message type: what is posted and what is stored.
type waTypeCase struct {
	name    string
	message H
	content string
	// attrs are content_attributes paths and their values.
	attrs map[string]any
	// file is the attachment's file type, name and bytes ("": none).
	fileType, fileName string
	data               []byte
}

func waTypeCases() []waTypeCase {
	media := func(id string, extra H) H {
		m := H{"id": id, "mime_type": waMedia[id].mime}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	reply := waMessage("wamid.t-reply", "text", H{"body": "Yes please"})
	reply["context"] = H{"from": "15550001111", "id": "wamid.ours"}
	return []waTypeCase{
		{name: "text", message: waMessage("wamid.t-text", "text", H{"body": "Plain text"}), content: "Plain text"},
		{name: "a reply keeps the message it answers", message: reply, content: "Yes please",
			attrs: map[string]any{"in_reply_to_external_id": "wamid.ours"}},
		{name: "image with a caption", message: waMessage("wamid.t-image", "image", media("media-photo", H{"caption": "The parcel"})),
			content: "The parcel", fileType: "image", fileName: "image-media-photo.jpg", data: waMedia["media-photo"].data},
		{name: "voice note", message: waMessage("wamid.t-audio", "audio", media("media-voice", H{"voice": true})),
			fileType: "audio", fileName: "audio-media-voice.ogg", data: waMedia["media-voice"].data},
		{name: "video", message: waMessage("wamid.t-video", "video", media("media-clip", nil)),
			fileType: "video", fileName: "video-media-clip.mp4", data: waMedia["media-clip"].data},
		{name: "document keeps its file name", message: waMessage("wamid.t-doc", "document", media("media-invoice", H{"filename": "invoice-1042.pdf", "caption": "Invoice"})),
			content: "Invoice", fileType: "file", fileName: "invoice-1042.pdf", data: waMedia["media-invoice"].data},
		{name: "sticker", message: waMessage("wamid.t-sticker", "sticker", media("media-sticker", H{"animated": false})),
			fileType: "image", fileName: "sticker-media-sticker.webp", data: waMedia["media-sticker"].data},
		{name: "media the Graph API no longer has is stored without it, saying so",
			message: waMessage("wamid.t-gone", "image", H{"id": "media-gone", "mime_type": "image/jpeg"}),
			content: "[image: the file could not be fetched from WhatsApp]", attrs: map[string]any{"media_error": nonEmpty}},
		{name: "location", message: waMessage("wamid.t-loc", "location", H{"latitude": 52.520008, "longitude": 13.404954, "name": "Alexanderplatz", "address": "10178 Berlin"}),
			content: "Location: Alexanderplatz · 10178 Berlin · 52.520008, 13.404954",
			attrs:   map[string]any{"location.latitude": 52.520008, "location.longitude": 13.404954, "location.name": "Alexanderplatz", "location.address": "10178 Berlin"}},
		{name: "contacts", message: waMessage("wamid.t-contacts", "contacts", []H{{"name": H{"formatted_name": "Bob Builder", "first_name": "Bob"},
			"phones": []H{{"phone": "+49 30 1234567", "wa_id": "49301234567", "type": "WORK"}}}}),
			content: "Shared contact: Bob Builder", attrs: map[string]any{"contacts.0.name.formatted_name": "Bob Builder", "contacts.0.phones.0.wa_id": "49301234567"}},
		{name: "interactive button reply", message: waMessage("wamid.t-button-reply", "interactive", H{"type": "button_reply", "button_reply": H{"id": "yes-1", "title": "Yes"}}),
			content: "Yes", attrs: map[string]any{"interactive.type": "button_reply", "interactive.id": "yes-1"}},
		{name: "interactive list reply", message: waMessage("wamid.t-list-reply", "interactive", H{"type": "list_reply", "list_reply": H{"id": "slot-9", "title": "9:00", "description": "Morning"}}),
			content: "9:00", attrs: map[string]any{"interactive.type": "list_reply", "interactive.id": "slot-9", "interactive.description": "Morning"}},
		{name: "template quick-reply button", message: waMessage("wamid.t-button", "button", H{"payload": "STOP_PROMOS", "text": "Stop promotions"}),
			content: "Stop promotions", attrs: map[string]any{"interactive.type": "button", "interactive.id": "STOP_PROMOS"}},
		{name: "reaction", message: waMessage("wamid.t-reaction", "reaction", H{"message_id": "wamid.ours", "emoji": "👍"}),
			content: "👍", attrs: map[string]any{"is_reaction": true, "in_reply_to_external_id": "wamid.ours"}},
		{name: "unsupported type", message: waMessage("wamid.t-order", "order", H{"catalog_id": "c1"}),
			content: `This WhatsApp message (type "order") cannot be shown here; see it in WhatsApp on the phone.`,
			attrs:   map[string]any{"unsupported_type": "order"}},
	}
}

// Every common message type is stored with its text, its attributes and
// its file (fetched from the Graph API with the inbox's token, into our
// storage), as the API shows it.
func TestWhatsAppWebhookMessageTypes(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, waMedia)
		w.mustDo(signed(waText("wamid.first", "Hi")), http.StatusOK)
		conv := w.srv.DB.Client.Conversation.GetX(sys(), w.stored(t, "wamid.first").ConversationID).DisplayID
		var scenarios []scenario
		for _, tc := range waTypeCases() {
			scenarios = append(scenarios, scenario{name: tc.name, request: signed(waEnvelope([]H{tc.message}, nil)),
				wantStatus: http.StatusOK, want: answered(1, 0, 0, 0), wantEvents: []events.Kind{events.MessageCreated},
				check: func(t *testing.T, _ *response) { w.checkStored(t, conv, tc) }})
		}
		n := len(waTypeCases()) + 1
		scenarios = append(scenarios,
			scenario{name: "a removed reaction shows nothing", request: signed(waEnvelope([]H{waMessage("wamid.t-unreact", "reaction", H{"message_id": "wamid.ours", "emoji": ""})}, nil)),
				wantStatus: http.StatusOK, want: answered(0, 0, 0, 1), wantEvents: []events.Kind{}, check: w.storesNothing(n)},
			scenario{name: "the Graph API down: 503, nothing stored, Meta posts again", request: signed(waEnvelope([]H{waMessage("wamid.t-down", "image", H{"id": "media-down"})}, nil)),
				wantStatus: http.StatusServiceUnavailable, wantEvents: []events.Kind{}, check: w.storesNothing(n)},
		)
		w.run(t, scenarios)
	})
}

// checkStored reads the message through the API and holds it to tc.
func (w *waApp) checkStored(t *testing.T, conv int, tc waTypeCase) {
	t.Helper()
	id, _ := tc.message["id"].(string)
	m := w.stored(t, id)
	if m == nil {
		t.Fatalf("%s was not stored", id)
	}
	r := w.mustDoT(t, request{method: "GET", path: w.path("/conversations/%d/messages?after=%d", conv, m.ID-1)}, http.StatusOK)
	want := map[string]any{"payload.0.id": m.ID, "payload.0.message_type": 0, "payload.0.source_id": id}
	if tc.content != "" {
		want["payload.0.content"] = tc.content
	}
	for k, v := range tc.attrs {
		want["payload.0.content_attributes."+k] = v
	}
	if tc.fileType == "" {
		want["payload.0.attachments"] = absent
	} else {
		want["payload.0.attachments.#"] = 1
		want["payload.0.attachments.0.file_type"] = tc.fileType
	}
	expect(t, r, want)
	if tc.fileType == "" {
		return
	}
	if len(m.Edges.Attachments) != 1 || m.Edges.Attachments[0].FileName != tc.fileName {
		t.Fatalf("attachments %v, want one named %s", m.Edges.Attachments, tc.fileName)
	}
	got := w.mustDoT(t, request{method: "GET", path: r.str(t, "payload.0.attachments.0.data_url")}, http.StatusOK)
	if !bytes.Equal(got.Body, tc.data) {
		t.Errorf("the stored file holds %q, want %q", got.Body, tc.data)
	}
}
