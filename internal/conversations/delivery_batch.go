package conversations

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
)

// Delivered is a message its channel accepted (as its delivery read it),
// with the id the channel gave it ("" for none). AwaitsReceipt: the channel
// tells later when it reached the contact (WhatsApp's statuses), so the
// message stays sent until that receipt; any other is delivered now.
type Delivered struct {
	Message       *ent.Message
	SourceID      string
	AwaitsReceipt bool
}

// RecordDelivered records, in c's transaction, that the channels accepted
// messages ds, set-based: for each account's messages, whatever their
// number, one UPDATE and one read back as the account's system
// (asDeliveryRecord), then, as ctx, what a delivery's end tells (the
// schedules that posted them, message_updated). The job runner records the
// deliveries that end together this way; a message gone meanwhile fails
// the whole record (the runner then records each alone).
func (s *Service) RecordDelivered(ctx context.Context, c *ent.Client, ds []Delivered) error {
	for _, group := range deliveredByAccount(ds) {
		if err := s.recordDelivered(ctx, c, group); err != nil {
			return err
		}
	}
	return nil
}

// deliveredByAccount splits ds by account, in account order (a commit's
// statements then take their locks in one order).
func deliveredByAccount(ds []Delivered) [][]Delivered {
	byAccount := map[int][]Delivered{}
	for _, d := range ds {
		byAccount[d.Message.AccountID] = append(byAccount[d.Message.AccountID], d)
	}
	out := make([][]Delivered, 0, len(byAccount))
	for _, a := range slices.Sorted(maps.Keys(byAccount)) {
		out = append(out, byAccount[a])
	}
	return out
}

// recordDelivered is RecordDelivered for the messages of one account.
func (s *Service) recordDelivered(ctx context.Context, c *ent.Client, ds []Delivered) error {
	mctx := asDeliveryRecord(ctx, ds[0].Message.AccountID)
	var delivered, accepted []int
	for _, d := range ds {
		if d.AwaitsReceipt {
			accepted = append(accepted, d.Message.ID)
		} else {
			delivered = append(delivered, d.Message.ID)
		}
	}
	delivered, accepted = core.UniqueInts(delivered), core.UniqueInts(accepted)
	sources, err := freeSourceIDs(mctx, c, ds)
	if err != nil {
		return err
	}
	for _, set := range []struct {
		ids    []int
		status *message.Status
	}{{delivered, new(message.StatusDelivered)}, {accepted, nil}} {
		if err := recordAccepted(mctx, c, set.ids, set.status, sources); err != nil {
			return err
		}
	}
	ids := append(delivered, accepted...)
	ms, err := c.Message.Query().Where(message.IDIn(ids...)).Order(ent.Asc(message.FieldID)).All(mctx)
	if err != nil {
		return err
	}
	return s.deliveriesEnded(ctx, c, ms)
}

// recordAccepted ends the deliveries of messages ids, in one UPDATE: their
// status set to status (nil: left as it is), their channel ids from
// sources.
func recordAccepted(ctx context.Context, c *ent.Client, ids []int, status *message.Status, sources map[int]string) error {
	if len(ids) == 0 {
		return nil
	}
	u := c.Message.Update().Where(message.IDIn(ids...)).SetNillableStatus(status).ClearNextDeliveryAt().AddDeliveryAttempts(1)
	if len(sources) > 0 {
		u.Modify(core.SetEachByID(message.FieldSourceID, "TEXT", sources))
	}
	n, err := u.Save(ctx)
	if err != nil {
		return err
	}
	if n != len(ids) {
		return fmt.Errorf("recording %d deliveries: %d of the messages are gone", len(ids), len(ids)-n)
	}
	return nil
}

// freeSourceIDs returns the channels' ids of ds that the messages may take,
// by message id. The channel's id names one message of the inbox: should a
// provider answer an id it gave another message before (or twice in one
// group), the message is still delivered (a retry would send it again),
// without the id, and the first keeps it.
func freeSourceIDs(ctx context.Context, c *ent.Client, ds []Delivered) (map[int]string, error) {
	type key struct {
		inbox  int
		source string
	}
	var inboxes []int
	var wanted []string
	for _, d := range ds {
		if d.SourceID != "" {
			inboxes, wanted = append(inboxes, d.Message.InboxID), append(wanted, d.SourceID)
		}
	}
	if len(wanted) == 0 {
		return nil, nil
	}
	holders, err := c.Message.Query().Where(message.InboxIDIn(core.UniqueInts(inboxes)...), message.SourceIDIn(wanted...)).
		Select(message.FieldID, message.FieldInboxID, message.FieldSourceID).All(ctx)
	if err != nil {
		return nil, err
	}
	held := map[key]int{}
	for _, h := range holders {
		held[key{h.InboxID, *h.SourceID}] = h.ID
	}
	free := map[int]string{}
	for _, d := range ds {
		k := key{d.Message.InboxID, d.SourceID}
		if holder, ok := held[k]; d.SourceID == "" || (ok && holder != d.Message.ID) {
			continue
		}
		held[k] = d.Message.ID
		free[d.Message.ID] = d.SourceID
	}
	return free, nil
}
