package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/db"
)

// sizes is the dataset.
type sizes struct{ contacts, conversations, messages, cards int }

func (s sizes) String() string {
	return fmt.Sprintf("%d contacts, %d conversations, %d messages in one, %d cards", s.contacts, s.conversations, s.messages, s.cards)
}

func (s sizes) check() error {
	if s.contacts < 1 || s.conversations < 1 || s.messages < 1 || s.cards < 1 {
		return fmt.Errorf("-contacts, -conversations, -messages and -cards must be at least 1")
	}
	if s.contacts > 1_000_000 || s.conversations > 100_000 || s.messages > 5_000_000 || s.cards > 10_000 {
		return fmt.Errorf("at most 1,000,000 contacts, 100,000 conversations, 5,000,000 messages and 10,000 cards")
	}
	return nil
}

// Rows a statement and a transaction: modernc's SQLite driver binds
// parameters in quadratic time, so an INSERT stays at a few thousand.
const (
	stmtRows = 250
	txRows   = 5000
)

// world is the seeded account as the drivers see it.
type world struct {
	sizes     sizes
	base      string
	client    *fasthttp.Client
	token     string
	accountID int
	userID    int
	inboxID   int
	contacts  []int // ids
	convs     []int // display ids
	busyConv  int   // display id of the conversation holding the messages
	firstMsg  int   // the busy conversation's message ids: firstMsg..lastMsg
	lastMsg   int
	board     board
	// writer is the account -writes posts in: this one, or with
	// -writes-elsewhere a neighbour.
	writer *world
}

func seed(ctx context.Context, srv *server.Server, raw *db.DB, base string, sz sizes, progress io.Writer) (*world, error) {
	boot, err := srv.Svc.Bootstrap(ctx, accounts.BootstrapInput{AccountName: accountName, Email: adminEmail, Name: "Load Admin"})
	if err != nil {
		return nil, err
	}
	w := &world{base: base, token: boot.AccessToken, accountID: boot.AccountID, userID: boot.UserID, sizes: sz,
		client: newClient()}
	var ib struct{ ID int }
	if err := w.call(ctx, "POST", "/inboxes", map[string]any{"name": "API",
		"channel": map[string]any{"type": "api", "webhook_url": "https://hooks.example.com/in"}}, &ib); err != nil {
		return nil, err
	}
	w.inboxID = ib.ID
	sys := core.AsSeeding(ctx)
	rng := rand.New(rand.NewPCG(13, 2026))
	err = withoutIndexes(ctx, raw, progress, []string{"contacts", "contact_inboxes"}, func() error {
		return seedContacts(sys, raw.Client, w, sz.contacts, rng, progress)
	})
	if err != nil {
		return nil, err
	}
	if err := seedConversations(sys, raw.Client, w, sz.conversations, progress); err != nil {
		return nil, err
	}
	err = withoutIndexes(ctx, raw, progress, []string{"messages"}, func() error {
		return seedMessages(sys, raw.Client, w, sz.messages, rng, progress)
	})
	if err != nil {
		return nil, err
	}
	if err := seedBoard(ctx, sys, raw.Client, w, sz.cards, progress); err != nil {
		return nil, err
	}
	return w, analyze(ctx, raw)
}

// inBatches calls insert for [from, to) ranges of stmtRows inside
// transactions of txRows, printing progress.
func inBatches(ctx context.Context, c *ent.Client, what string, n int, progress io.Writer,
	insert func(tx *ent.Tx, from, to int) error) error {
	for from := 0; from < n; from += txRows {
		tx, err := c.Tx(ctx)
		if err != nil {
			return err
		}
		for start := from; start < min(from+txRows, n); start += stmtRows {
			if err := insert(tx, start, min(start+stmtRows, from+txRows, n)); err != nil {
				_ = tx.Rollback()
				return fmt.Errorf("%s %d: %w", what, start, err)
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(progress, "\rseeding %s %d/%d   ", what, min(from+txRows, n), n)
	}
	return nil
}

var (
	firstNames = []string{"James", "Mary", "John", "Patricia", "Anna", "Sofia", "Lucas", "Mateo", "Olivia", "Emma",
		"Hiroshi", "Yuki", "Wei", "Priya", "Arjun", "Fatima", "Omar", "Lukas", "Marta", "Piotr", "Giulia", "Marco"}
	lastNames = []string{"Smith", "Johnson", "Garcia", "Miller", "Martinez", "Lee", "Patel", "Kowalski", "Nowak",
		"Rossi", "Müller", "Schmidt", "Tanaka", "Wang", "Silva", "Santos", "Murphy", "Dubois", "Khan", "Singh"}
	domains = []string{"gmail.com", "gmail.com", "yahoo.com", "outlook.com", "acme-corp.com", "globex.io", "web.de"}
)

func seedContacts(ctx context.Context, c *ent.Client, w *world, n int, rng *rand.Rand, progress io.Writer) error {
	now := time.Now().UTC()
	return inBatches(ctx, c, "contacts", n, progress, func(tx *ent.Tx, from, to int) error {
		builders := make([]*ent.ContactCreate, 0, to-from)
		for i := from; i < to; i++ {
			first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
			at := now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
			b := tx.Contact.Create().SetAccountID(w.accountID).SetName(first + " " + last).
				SetCreatedAt(at).SetUpdatedAt(at).SetLastActivityAt(at).
				SetEmail(fmt.Sprintf("%s.%d@%s", lowerASCII(first), i, domains[rng.IntN(len(domains))]))
			if rng.IntN(10) < 8 {
				b.SetPhoneNumber(fmt.Sprintf("+1%03d%07d", 200+rng.IntN(800), i))
			}
			builders = append(builders, b)
		}
		created, err := tx.Contact.CreateBulk(builders...).Save(ctx)
		if err != nil {
			return err
		}
		inboxes := make([]*ent.ContactInboxCreate, 0, len(created))
		for _, ct := range created {
			w.contacts = append(w.contacts, ct.ID)
			inboxes = append(inboxes, tx.ContactInbox.Create().SetAccountID(w.accountID).SetContactID(ct.ID).SetInboxID(w.inboxID).SetSourceID(uuid.NewString()))
		}
		return tx.ContactInbox.CreateBulk(inboxes...).Exec(ctx)
	})
}

func lowerASCII(s string) string {
	b := []byte{}
	for _, r := range s {
		if r < 128 {
			b = append(b, byte(r|0x20))
		}
	}
	return string(b)
}

func seedConversations(ctx context.Context, c *ent.Client, w *world, n int, progress io.Writer) error {
	now := time.Now().UTC()
	err := inBatches(ctx, c, "conversations", n, progress, func(tx *ent.Tx, from, to int) error {
		builders := make([]*ent.ConversationCreate, 0, to-from)
		for i := from; i < to; i++ {
			builders = append(builders, tx.Conversation.Create().SetAccountID(w.accountID).SetDisplayID(i+1).
				SetUUID(uuid.NewString()).SetInboxID(w.inboxID).SetContactID(w.contacts[i%len(w.contacts)]).
				SetLastActivityAt(now.Add(-time.Duration(i)*time.Minute)))
			w.convs = append(w.convs, i+1)
		}
		return tx.Conversation.CreateBulk(builders...).Exec(ctx)
	})
	if err != nil {
		return err
	}
	w.busyConv = w.convs[0]
	return c.Account.UpdateOneID(w.accountID).SetLastConversationDisplayID(n).Exec(ctx)
}

// seedMessages gives every conversation a message and the busy one n.
func seedMessages(ctx context.Context, c *ent.Client, w *world, n int, rng *rand.Rand, progress io.Writer) error {
	convs, err := c.Conversation.Query().Order(ent.Asc("display_id")).All(ctx)
	if err != nil {
		return err
	}
	first := time.Now().UTC().Add(-30 * 24 * time.Hour)
	msg := func(tx *ent.Tx, conv *ent.Conversation, at time.Time, i int) *ent.MessageCreate {
		b := tx.Message.Create().SetAccountID(w.accountID).SetConversationID(conv.ID).SetInboxID(w.inboxID).
			SetCreatedAt(at).SetUpdatedAt(at).SetContent(fmt.Sprintf("Hello, about order #%d", 100000+i))
		if rng.IntN(2) == 0 {
			return b.SetMessageType(message.MessageTypeIncoming).SetSenderType(message.SenderTypeContact).SetSenderID(conv.ContactID)
		}
		return b.SetMessageType(message.MessageTypeOutgoing).SetStatus(message.StatusDelivered).
			SetSenderType(message.SenderTypeUser).SetSenderID(w.userID)
	}
	err = inBatches(ctx, c, "messages", n, progress, func(tx *ent.Tx, from, to int) error {
		builders := make([]*ent.MessageCreate, 0, to-from)
		for i := from; i < to; i++ {
			builders = append(builders, msg(tx, convs[0], first.Add(time.Duration(i)*time.Second), i))
		}
		created, err := tx.Message.CreateBulk(builders...).Save(ctx)
		if err == nil {
			if w.firstMsg == 0 {
				w.firstMsg = created[0].ID
			}
			w.lastMsg = created[len(created)-1].ID
		}
		return err
	})
	if err != nil {
		return err
	}
	return inBatches(ctx, c, "last messages", len(convs)-1, progress, func(tx *ent.Tx, from, to int) error {
		builders := make([]*ent.MessageCreate, 0, to-from)
		for i := from; i < to; i++ {
			builders = append(builders, msg(tx, convs[i+1], time.Now().UTC(), i))
		}
		return tx.Message.CreateBulk(builders...).Exec(ctx)
	})
}

// call sends one JSON request to the account's API and decodes the answer.
func (w *world) call(ctx context.Context, method, path string, body, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return w.do(method, fmt.Sprintf("%s/api/v1/accounts/%d%s", w.base, w.accountID, path), raw, func(status int, data []byte) error {
		if status != http.StatusOK {
			return fmt.Errorf("%s %s: %d %s", method, path, status, data)
		}
		return json.Unmarshal(data, out)
	})
}
