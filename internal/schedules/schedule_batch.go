package schedules

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
)

// FireDue fires up to n schedules due by dueBy (now, or a while ago for an
// instance that fires only late schedules). It returns how many rows it
// took, and those of them it leaves to be fired alone. The firing claims its
// rows in its own transaction: it reads the due rows locked (FOR UPDATE SKIP
// LOCKED on PostgreSQL, so concurrent firings, of this instance or another,
// take different rows; on SQLite the transaction is the one writer) and
// fires the ordinary ones among them there, together: their conversations
// and authors' memberships read once, their messages posted set-based. No
// claim is written before, and a firing that dies leaves its rows due at
// once. The others (edited, refused, missed, not yet due, a series at its
// end), or all of them when the shared firing fails, are returned: the
// caller claims them and fires each with FireSchedule, which knows every
// case. A batch changes how many statements a burst takes, never what a
// firing does, but for one thing: an edit that comes while a batch holds its
// row waits for it, and is then refused (the schedule has fired), where over
// a lone firing a concurrent edit wins (unchanged).
func (s *Service) FireDue(ctx context.Context, n int, dueBy time.Time) (took int, alone []int, err error) {
	var sms []*ent.ScheduledMessage
	// The rows are read as the job queue, for every account; each firing
	// then acts in its own account, as its author (fireGroup).
	err = s.InTx(core.AsBackgroundWork(ctx), func(ctx context.Context, c *ent.Client) error {
		var err error
		if sms, err = lockDue(ctx, c, dueBy, n); err != nil {
			return err
		}
		alone, err = s.fireOrdinary(ctx, c, sms)
		return err
	})
	if err != nil {
		if len(sms) == 0 || ctx.Err() != nil {
			return len(sms), nil, err
		}
		// The shared firing rolled back: each is fired alone.
		return len(sms), idsOf(sms), nil
	}
	return len(sms), alone, nil
}

// lockDue reads up to n schedules due by dueBy, in due order, locked; on
// PostgreSQL it passes over rows another firing holds.
func lockDue(ctx context.Context, c *ent.Client, dueBy time.Time, n int) ([]*ent.ScheduledMessage, error) {
	return c.ScheduledMessage.Query().Where(scheduledmessage.NextOccurrenceAtLTE(dueBy)).
		Order(ent.Asc(scheduledmessage.FieldNextOccurrenceAt), ent.Asc(scheduledmessage.FieldID)).Limit(n).
		WithAttachments().Modify(core.ForUpdateSkipLockedOnPostgres).All(ctx)
}

// fireOrdinary fires the ordinary firings of sms together, in the
// transaction of c, and returns the ids of the others.
func (s *Service) fireOrdinary(ctx context.Context, c *ent.Client, sms []*ent.ScheduledMessage) (alone []int, err error) {
	var due []dueFiring
	for _, sm := range sms {
		if at, ok := s.ordinaryFiring(sm); ok {
			due = append(due, dueFiring{sm, at})
		} else {
			alone = append(alone, sm.ID)
		}
	}
	if len(due) == 0 {
		return alone, nil
	}
	return alone, s.fireTogether(ctx, c, due)
}

func idsOf(sms []*ent.ScheduledMessage) []int {
	ids := make([]int, len(sms))
	for i, sm := range sms {
		ids[i] = sm.ID
	}
	return ids
}

// dueFiring is a schedule and the occurrence it fires now.
type dueFiring struct {
	sm *ent.ScheduledMessage
	at time.Time
}

// ordinaryFiring returns the occurrence sm fires now when it is the
// ordinary case: a pending schedule (not an occurrence row) whose next
// occurrence is due and not missed.
func (s *Service) ordinaryFiring(sm *ent.ScheduledMessage) (time.Time, bool) {
	if sm.Status != scheduledmessage.StatusPending || sm.ParentID != nil {
		return time.Time{}, false
	}
	at, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	now := s.Now()
	if !ok || at.After(now) || now.Sub(at) > s.catchUpWindow() {
		return time.Time{}, false
	}
	return at, true
}

// fireTogether fires every firing of due in the transaction of c, with the
// conversations and the authors' memberships read once for all, and the
// messages of each author's firings in named conversations posted
// together (AddMessages); a firing that must find or start its
// conversation posts alone.
func (s *Service) fireTogether(ctx context.Context, c *ent.Client, due []dueFiring) error {
	reads, err := readForFirings(ctx, c, due)
	if err != nil {
		return err
	}
	for _, group := range byAuthor(due) {
		if err := s.fireGroup(asScheduleAuthor(ctx, group[0].sm), c, group, reads); err != nil {
			return err
		}
	}
	return nil
}

// byAuthor splits due into runs of one account and author, in order: a
// batch's messages are posted as one author.
func byAuthor(due []dueFiring) [][]dueFiring {
	var groups [][]dueFiring
	index := map[[2]int]int{}
	for _, d := range due {
		key := [2]int{d.sm.AccountID, 0}
		if d.sm.AuthorID != nil {
			key[1] = *d.sm.AuthorID
		}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], d)
	}
	return groups
}

// fireGroup fires one author's firings of a batch, as that author (ctx).
func (s *Service) fireGroup(ctx context.Context, c *ent.Client, group []dueFiring, reads *firingReads) error {
	var together []dueFiring
	var drafts []conversations.MessageDraft
	for _, d := range group {
		if err := authorMayPost(ctx, c, d.sm, reads); err != nil {
			return err
		}
		cv := reads.conversation(conversationIDOf(d.sm))
		if cv == nil {
			if err := s.fire(ctx, c, d.sm, d.at, reads); err != nil {
				return err
			}
			continue
		}
		together = append(together, d)
		drafts = append(drafts, conversations.MessageDraft{Conversation: cv, Input: messageOf(d.sm),
			Files: core.StoredFilesOf(d.sm.Edges.Attachments)})
	}
	if len(drafts) == 0 {
		return nil
	}
	ms, err := s.conv.AddMessages(ctx, c, drafts)
	if err != nil {
		return err
	}
	fs := make([]fired, len(together))
	for i, d := range together {
		fs[i] = fired{dueFiring: d, conversationID: drafts[i].Conversation.ID, m: ms[i]}
	}
	return s.recordFirings(ctx, c, fs)
}

// asScheduleAuthor is ctx acting in sm's account for its author (as the
// account's system when it has none).
func asScheduleAuthor(ctx context.Context, sm *ent.ScheduledMessage) context.Context {
	author := 0
	if sm.AuthorID != nil {
		author = *sm.AuthorID
	}
	return core.AsAccountSystem(ctx, sm.AccountID, author)
}

// firingReads are what a batch of firings reads once: the conversations
// the schedules name, with their inboxes, and the authors' memberships.
type firingReads struct {
	conversations map[int]*ent.Conversation
	members       map[[2]int]*ent.AccountUser // (account, user) → membership
}

func readForFirings(ctx context.Context, c *ent.Client, due []dueFiring) (*firingReads, error) {
	var convIDs, authorIDs []int
	for _, d := range due {
		if d.sm.ConversationID != nil {
			convIDs = append(convIDs, *d.sm.ConversationID)
		}
		if d.sm.AuthorID != nil {
			authorIDs = append(authorIDs, *d.sm.AuthorID)
		}
	}
	reads := &firingReads{conversations: map[int]*ent.Conversation{}, members: map[[2]int]*ent.AccountUser{}}
	convs, err := c.Conversation.Query().Where(conversation.IDIn(core.UniqueInts(convIDs)...)).WithInbox().All(ctx)
	if err != nil {
		return nil, err
	}
	for _, cv := range convs {
		reads.conversations[cv.ID] = cv
	}
	members, err := c.AccountUser.Query().Where(accountuser.UserIDIn(core.UniqueInts(authorIDs)...)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		reads.members[[2]int{m.AccountID, m.UserID}] = m
	}
	return reads, nil
}

// conversation is the conversation id with its inbox, as read for the
// batch, or nil.
func (r *firingReads) conversation(id int) *ent.Conversation {
	if r == nil {
		return nil
	}
	return r.conversations[id]
}

// membership is the author's membership of the account as read for the
// batch; known says whether the batch read it at all.
func (r *firingReads) membership(accountID, userID int) (m *ent.AccountUser, known bool) {
	if r == nil {
		return nil, false
	}
	return r.members[[2]int{accountID, userID}], true
}
