package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
)

// postDuring posts perSecond messages a second into w's conversations, as
// agents answering while others read, until the returned stop is called.
// What the server keeps in memory of the account (its conversation pages)
// is forgotten at each post, so the reads pay for the writes as they would
// in use. stop reports the posts made and failed; the route's figures
// are the reads'.
func (w *world) postDuring(ctx context.Context, perSecond int) (stop func() (posted, failed int)) {
	if perSecond <= 0 {
		return func() (int, int) { return 0, 0 }
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var posted, failed int // written by the poster until done
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second / time.Duration(perSecond))
		defer tick.Stop()
		rng := rand.New(rand.NewPCG(7, 7))
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				path := fmt.Sprintf("/conversations/%d/messages", w.convs[rng.IntN(len(w.convs))])
				posted++
				if w.send(ctx, "POST", path, map[string]any{"content": "Answered meanwhile.", "message_type": "outgoing"}) != nil && ctx.Err() == nil {
					failed++
				}
			}
		}
	}()
	return func() (int, int) { cancel(); <-done; return posted, failed }
}

// poster is the account -writes posts in.
func (w *world) poster() *world {
	if w.writer != nil {
		return w.writer
	}
	return w
}

// neighbour makes another account on w's installation, with an inbox and
// 30 conversations, for -writes-elsewhere: an installation serves many
// accounts, and one account's posts should cost another's reads nothing.
func neighbour(ctx context.Context, srv *server.Server, w *world) (*world, error) {
	email := fmt.Sprintf("neighbour-%d@test.example", time.Now().UnixNano())
	boot, err := srv.Svc.Bootstrap(ctx, accounts.BootstrapInput{AccountName: "Load Neighbour", Email: email, Name: "Neighbour Admin"})
	if err != nil {
		return nil, err
	}
	n := &world{base: w.base, client: w.client, token: boot.AccessToken, accountID: boot.AccountID, userID: boot.UserID}
	var ib struct{ ID int }
	if err := n.call(ctx, "POST", "/inboxes", map[string]any{"name": "API",
		"channel": map[string]any{"type": "api", "webhook_url": "https://hooks.example.com/in"}}, &ib); err != nil {
		return nil, err
	}
	for i := range 30 {
		var ct struct {
			Payload struct{ Contact struct{ ID int } } `json:"payload"`
		}
		if err := n.call(ctx, "POST", "/contacts", map[string]any{"inbox_id": ib.ID, "name": fmt.Sprintf("Neighbour %d", i)}, &ct); err != nil {
			return nil, err
		}
		var cv struct{ ID int }
		if err := n.call(ctx, "POST", "/conversations", map[string]any{"inbox_id": ib.ID, "contact_id": ct.Payload.Contact.ID}, &cv); err != nil {
			return nil, err
		}
		n.convs = append(n.convs, cv.ID)
	}
	return n, nil
}
