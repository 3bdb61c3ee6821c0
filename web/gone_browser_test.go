package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/web"
)

// TestLivePagesSayWhenTheirSubjectIsGone: a board whose funnel is deleted,
// and a conversation whose agent leaves its inbox, stop reconnecting and
// say so, instead of retrying for ever against a 404.
func TestLivePagesSayWhenTheirSubjectIsGone(t *testing.T) {
	t.Cleanup(web.SetLiveTimings(2*time.Second, 100*time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		b := startBrowser(t)

		admin := b.signInTab(c.base)
		live := func(id, state string) string {
			return fmt.Sprintf(`document.getElementById(%q) && document.getElementById(%q).dataset.live === %q`, id, id, state)
		}
		b.goTo(admin, c.base+c.app(fmt.Sprintf("/funnels/%d/board", p.funnel)), "the board", live("board", "open"))
		c.deleteAPI(c.api(fmt.Sprintf("/funnels/%d", p.funnel)))
		b.waitTrue(admin, "the board said gone", live("board", "gone")+` && !document.getElementById('board-message').hidden`)
		if got := b.text(admin, "[data-testid=board-message]"); got == "" {
			t.Errorf("the board says nothing of its funnel's deletion")
		}
		b.shootWidths(t, admin, "board-gone")

		inbox := idOf(c.mustGet(c.api(fmt.Sprintf("/conversations/%d", p.conv))), "inbox_id")
		id, _ := signedInAgent(c, "alan")
		c.mustPost(c.api("/inbox_members"), map[string]any{"inbox_id": inbox, "user_ids": []int{id}})
		agent := b.signInTabAs(c.base, "alan@acme.test", "alan-long-pass")
		b.goTo(agent, c.base+c.app(fmt.Sprintf("/conversations/%d", p.conv)), "the conversation", live("thread", "open"))
		c.mustPatch(c.api("/inbox_members"), map[string]any{"inbox_id": inbox, "user_ids": []int{}})
		b.waitTrue(agent, "the conversation said out of reach", live("thread", "gone")+` && !document.getElementById('conversation-gone').hidden`)
		b.shootWidths(t, agent, "conversation-gone")
	})
}
