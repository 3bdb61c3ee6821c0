// Package whatsapp receives a WhatsApp Cloud inbox's webhooks: Meta's
// verification of the callback URL, and the signed posts that carry the
// customers' messages and the statuses of ours. It reads the Cloud API's
// envelope, fetches media through the Graph API, and hands each message to
// conversations.Receive and each status to conversations.RecordReceipt, as
// every channel does.
package whatsapp

import (
	"bytes"
	"encoding/json"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// envelope is a webhook post: entries of changes, each with its value.
type envelope struct {
	Object string  `json:"object"`
	Entry  []entry `json:"entry"`
}

type entry struct {
	ID      string   `json:"id"`
	Changes []change `json:"changes"`
}

type change struct {
	Field string `json:"field"`
	Value value  `json:"value"`
}

// value is what happened to one business number: messages its customers
// sent (with their profiles in contacts) and statuses of messages it sent.
type value struct {
	Metadata struct {
		DisplayPhoneNumber string `json:"display_phone_number"`
		PhoneNumberID      string `json:"phone_number_id"`
	} `json:"metadata"`
	Contacts []profile      `json:"contacts"`
	Messages []inMessage    `json:"messages"`
	Statuses []statusUpdate `json:"statuses"`
}

type profile struct {
	Profile struct {
		Name string `json:"name"`
	} `json:"profile"`
	WaID string `json:"wa_id"`
}

// inMessage is a customer's message, of one of the Cloud API's types.
type inMessage struct {
	From      string `json:"from"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Context   *struct {
		From string `json:"from"`
		ID   string `json:"id"`
	} `json:"context"`
	Text *struct {
		Body string `json:"body"`
	} `json:"text"`
	Image       *media           `json:"image"`
	Audio       *media           `json:"audio"`
	Video       *media           `json:"video"`
	Document    *media           `json:"document"`
	Sticker     *media           `json:"sticker"`
	Location    *location        `json:"location"`
	Contacts    []map[string]any `json:"contacts"`
	Interactive *struct {
		Type        string `json:"type"`
		ButtonReply *reply `json:"button_reply"`
		ListReply   *reply `json:"list_reply"`
	} `json:"interactive"`
	Button *struct {
		Payload string `json:"payload"`
		Text    string `json:"text"`
	} `json:"button"`
	Reaction *struct {
		MessageID string `json:"message_id"`
		Emoji     string `json:"emoji"`
	} `json:"reaction"`
}

type media struct {
	ID       string `json:"id"`
	MimeType string `json:"mime_type"`
	Caption  string `json:"caption"`
	Filename string `json:"filename"`
}

type location struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Name      string  `json:"name"`
	Address   string  `json:"address"`
}

type reply struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// statusUpdate is what became of a message the business sent.
type statusUpdate struct {
	ID          string `json:"id"`
	Status      string `json:"status"`
	RecipientID string `json:"recipient_id"`
	Errors      []struct {
		Code  int    `json:"code"`
		Title string `json:"title"`
	} `json:"errors"`
}

// maxItems bounds the messages and statuses one post may carry (Meta sends
// a few at a time); more is refused before anything is stored.
const maxItems = 200

// parse reads a webhook body: 400 when it is not the Cloud API's envelope,
// 422 when it carries more than maxItems messages and statuses.
func parse(body []byte) (*envelope, error) {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&env); err != nil {
		return nil, apperr.BadRequest("The body is not a WhatsApp Cloud webhook (JSON): %s", core.Truncate(err.Error(), 200))
	}
	if dec.More() {
		return nil, apperr.BadRequest("The body holds more than one JSON value")
	}
	n := 0
	for _, e := range env.Entry {
		for _, c := range e.Changes {
			n += len(c.Value.Messages) + len(c.Value.Statuses)
		}
	}
	if n > maxItems {
		return nil, apperr.Invalidf("entry", "A webhook post may carry at most %d messages and statuses; this one has %d", maxItems, n)
	}
	return &env, nil
}
