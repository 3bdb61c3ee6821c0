package web_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCalendarSocketTellsOfItsInboxesOnly: the calendar's socket tells an
// agent of the schedules of the inboxes it works in, not of the others'
// (their ids are not the agent's to hear of); an administrator hears of
// all. Events come in order, so a schedule of the other inbox made first
// would be the first told.
func TestCalendarSocketTellsOfItsInboxesOnly(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		mine := idOf(c.mustGet(c.api(fmt.Sprintf("/conversations/%d", p.conv))), "inbox_id")
		other := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Other desk", "channel": map[string]any{"type": "api"}}), "id")
		alice := idOf(c.mustGet(c.api("/contacts"))["payload"].([]any)[0].(map[string]any), "id")
		grace, cookie := signedInAgent(c, "grace")
		c.mustPost(c.api("/inbox_members"), map[string]any{"inbox_id": mine, "user_ids": []int{grace}})

		agentHears := c.calendarEvents(cookie)
		adminHears := c.calendarEvents(c.cookie)
		at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		schedule := func(inbox int) int {
			return idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": inbox, "contact_id": alice,
				"content": "Hello", "scheduled_at": at}), "id")
		}
		elsewhere, here := schedule(other), schedule(mine)
		for _, tc := range []struct {
			who   string
			heard <-chan int
			first int
		}{
			{"the agent", agentHears, here},
			{"the administrator", adminHears, elsewhere},
		} {
			select {
			case id := <-tc.heard:
				if id != tc.first {
					t.Errorf("%s first heard of schedule %d, want %d (%d is in an inbox the agent does not work in)", tc.who, id, tc.first, elsewhere)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("%s heard of no schedule", tc.who)
			}
		}
	})
}

// calendarEvents opens the calendar's socket with the session cookie and
// gives the schedule id of each change it is told of.
func (c *console) calendarEvents(cookie string) <-chan int {
	c.t.Helper()
	ws := c.dialLive("/schedules/live", cookie)
	ids := make(chan int, 100)
	go func() {
		defer close(ids)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var msg struct {
				ScheduleID int `json:"schedule_id"`
			}
			if json.Unmarshal(data, &msg) == nil && msg.ScheduleID != 0 {
				ids <- msg.ScheduleID
			}
		}
	}()
	return ids
}
