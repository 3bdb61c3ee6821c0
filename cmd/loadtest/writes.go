package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// postDuring posts perSecond messages a second into the seeded
// conversations, as agents answering while others read, until the returned
// stop is called. What the server keeps in memory (the conversation pages)
// is forgotten at each post, so the reads pay for the writes as they would
// in use. Errors are not counted: the route's figures are the reads'.
func (w *world) postDuring(ctx context.Context, perSecond int) (stop func()) {
	if perSecond <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
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
				_ = w.send(ctx, "POST", path, map[string]any{"content": "Answered meanwhile.", "message_type": "outgoing"})
			}
		}
	}()
	return func() { cancel(); <-done }
}
