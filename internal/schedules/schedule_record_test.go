package schedules

import (
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
)

// A batch records a one-off schedule only while its row is as the firing
// read it, which is what unchanged() asks of the row in a lone firing's
// UPDATE: otherwise the batch rolls back and each schedule fires alone.
func TestStillAsRead(t *testing.T) {
	read := &ent.ScheduledMessage{ID: 7, Status: scheduledmessage.StatusPending, OccurrencesCount: 0, UpdatedAt: now}
	edited := func(f func(*ent.ScheduledMessage)) *ent.ScheduledMessage {
		row := *read
		f(&row)
		return &row
	}
	for _, tc := range []struct {
		name string
		row  *ent.ScheduledMessage
		want bool
	}{
		{"as read", edited(func(*ent.ScheduledMessage) {}), true},
		{"deleted meanwhile", nil, false},
		{"fired by another runner", edited(func(r *ent.ScheduledMessage) { r.MessageID = ptr(3) }), false},
		{"cancelled", edited(func(r *ent.ScheduledMessage) { r.Status = scheduledmessage.StatusCancelled }), false},
		{"an occurrence recorded", edited(func(r *ent.ScheduledMessage) { r.OccurrencesCount = 1 }), false},
		{"edited", edited(func(r *ent.ScheduledMessage) { r.UpdatedAt = now.Add(time.Millisecond) }), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stillAsRead(read, tc.row); got != tc.want {
				t.Errorf("stillAsRead = %v, want %v", got, tc.want)
			}
		})
	}
}
