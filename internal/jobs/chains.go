package jobs

import (
	"sync"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
)

// chains keep the messages handed to this runner (handoff.go) in their
// conversations' order: one message of a conversation runs at a time, and
// the next starts when it is no longer pending (delivered, or failed for
// good). When it stays pending (waiting for a retry, an error, shutdown),
// the messages behind it are released, due again, and the ordered claim
// takes them after it, as it takes any conversation's messages.
type chains struct {
	mu sync.Mutex
	// queue holds each conversation's handed messages, the running one
	// first; of, each of those messages' conversation.
	queue map[int][]job
	of    map[int]int
	// releases counts the chains let go: a hand-off checked against the
	// chains as they were is refused when one was let go meanwhile.
	releases uint64
	// turn is the number of the last hand-off taken over (handoff.go):
	// they are taken in the order their batches committed, so that one
	// batch does not find an earlier one's messages pending and outside
	// every chain only because it came first. With two firing workers, the
	// second's first batch found the first's so, and every message of a
	// burst's conversation went on through claims.
	turn     uint64
	turnDone *sync.Cond
	// live are the hand-offs not yet taken over, their transactions under
	// way or committed: one that commits after another may hold messages
	// with lower ids, and is taken over after it.
	live map[*core.Handoff]bool
}

func newChains() *chains {
	c := &chains{queue: map[int][]job{}, of: map[int]int{}, live: map[*core.Handoff]bool{}}
	c.turnDone = sync.NewCond(&c.mu)
	return c
}

// begin records hand-off h, its batch under way.
func (c *chains) begin(h *core.Handoff) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live[h] = true
}

// untaken returns the ids of the messages written by the hand-offs other
// than h not yet taken over. Taken over after h's (they commit after it, or
// roll back), they join their chains behind h's messages: they are no reason
// to release h's.
func (c *chains) untaken(h *core.Handoff) map[int]bool {
	c.mu.Lock()
	others := make([]*core.Handoff, 0, len(c.live))
	for o := range c.live {
		if o != h {
			others = append(others, o)
		}
	}
	c.mu.Unlock()
	out := map[int]bool{}
	for _, o := range others {
		for _, id := range o.IDs(message.Table) {
			out[id] = true
		}
	}
	return out
}

// awaitTurn waits until the hand-offs committed before seq are taken over.
func (c *chains) awaitTurn(seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.turn+1 < seq {
		c.turnDone.Wait()
	}
}

// endTurn records hand-off h, whose last commit is seq (0: none), taken
// over. It leaves the live ones first, under the same lock: the next
// hand-off, once its turn comes, must not take h's messages for ones still
// to be taken over (released ones among them are pending outside every
// chain).
func (c *chains) endTurn(h *core.Handoff, seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.live, h)
	c.turn = max(c.turn, seq)
	c.turnDone.Broadcast()
}

// last returns, for each of convs with a chain, its last message, and how
// many chains have been let go so far.
func (c *chains) last(convs []int) (map[int]int, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[int]int{}
	for _, conv := range convs {
		if q := c.queue[conv]; len(q) > 0 {
			out[conv] = q[len(q)-1].id
		}
	}
	return out, c.releases
}

// add puts js, messages of conv in order, at the end of its chain, unless
// a chain was let go since releases was read or one of pending (the
// conversation's other pending messages, as read since) is not in the
// chain: then it answers false and the caller releases js. It returns the
// job to start when js begin the chain.
func (c *chains) add(conv int, js []job, pending []int, releases uint64) (start *job, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.releases != releases {
		return nil, false
	}
	for _, id := range pending {
		if in, chained := c.of[id]; !chained || in != conv {
			return nil, false
		}
	}
	q := c.queue[conv]
	for _, j := range js {
		c.of[j.id] = conv
	}
	c.queue[conv] = append(q, js...)
	if len(q) == 0 {
		return &js[0], true
	}
	return nil, true
}

// settled ends message id's run. If it was a chain's running message, it
// returns the next to start when id is no longer pending, or the rest of the
// chain, let go, when it is.
func (c *chains) settled(id int, pending bool) (next *job, rest []job) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conv, ok := c.of[id]
	if !ok {
		return nil, nil
	}
	delete(c.of, id)
	q := c.queue[conv][1:]
	if len(q) == 0 {
		delete(c.queue, conv)
		return nil, nil
	}
	if !pending {
		c.queue[conv] = q
		return &q[0], nil
	}
	delete(c.queue, conv)
	for _, j := range q {
		delete(c.of, j.id)
	}
	c.releases++
	return nil, q
}
