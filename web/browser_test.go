package web_test

// The console in a real browser: Debian's headless Chromium, driven from Go
// over the DevTools protocol (a few commands, no library).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/testdb"
)

const chromiumPath = "/usr/bin/chromium"

// browser is a headless Chromium and its DevTools connection.
type browser struct {
	t    *testing.T
	conn *websocket.Conn
	mu   sync.Mutex
	next int
	wait map[int]chan cdpReply
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// killGroup kills the browser's whole process group and waits, with a
// deadline, until none of its processes is left.
func killGroup(t *testing.T, cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			t.Errorf("chromium's process group %d still has processes 10 s after SIGKILL", pgid)
			return
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		time.Sleep(20 * time.Millisecond) // polling the kernel for the group's end; nothing to wait on
	}
}

var devtoolsURL = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

func startBrowser(t *testing.T) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("Debian's chromium is not installed (.ci/run installs it)")
	}
	cmd := exec.Command(chromiumPath, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "about:blank")
	// Its own process group, so that the cleanup ends every process Chromium
	// started (renderers, GPU and zygote processes), not only the parent:
	// survivors kept writing into the profile directory while the test
	// removed it ("directory not empty").
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killGroup(t, cmd) })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("chromium did not start its DevTools endpoint")
	}
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	b := &browser{t: t, conn: conn, wait: map[int]chan cdpReply{}}
	go b.readReplies()
	return b
}

func (b *browser) readReplies() {
	for {
		var msg struct {
			ID int `json:"id"`
			cdpReply
		}
		if err := b.conn.ReadJSON(&msg); err != nil {
			return
		}
		b.mu.Lock()
		ch := b.wait[msg.ID]
		delete(b.wait, msg.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- msg.cdpReply
		}
	}
}

// call sends a DevTools command (to a page when session is set).
func (b *browser) call(session, method string, params map[string]any, out any) {
	b.t.Helper()
	if msg := b.try(session, method, params, out); msg != "" {
		b.t.Fatalf("%s: %s", method, msg)
	}
}

// try is call that hands back the browser's error message ("" when none)
// instead of failing the test.
func (b *browser) try(session, method string, params map[string]any, out any) string {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpReply, 1)
	b.wait[id] = ch
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	err := b.conn.WriteJSON(msg)
	b.mu.Unlock()
	if err != nil {
		b.t.Fatal(err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return r.Error.Message
		}
		if out != nil {
			if err := json.Unmarshal(r.Result, out); err != nil {
				b.t.Fatal(err)
			}
		}
	case <-time.After(20 * time.Second):
		b.t.Fatalf("%s: no answer", method)
	}
	return ""
}

// open opens a tab at url and returns its session.
func (b *browser) open(url string) string {
	b.t.Helper()
	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.call(att.SessionID, "Page.navigate", map[string]any{"url": url}, nil)
	return att.SessionID
}

// eval runs JavaScript in a tab and returns its (JSON) value.
func (b *browser) eval(session, js string) any {
	b.t.Helper()
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	// A page that navigates (a reload, a board refetch that replaces it)
	// destroys the context a script runs in: the script runs again in the
	// new page, within a deadline.
	deadline := time.Now().Add(10 * time.Second)
	for {
		msg := b.try(session, "Runtime.evaluate", map[string]any{"expression": js, "returnByValue": true, "awaitPromise": true}, &r)
		if msg == "" {
			break
		}
		if !strings.Contains(msg, "navigated or closed") || time.Now().After(deadline) {
			b.t.Fatalf("Runtime.evaluate: %s", msg)
		}
		<-time.After(50 * time.Millisecond) // poll interval while the new page loads
	}
	if r.ExceptionDetails != nil {
		b.t.Fatalf("script failed: %v", r.ExceptionDetails)
	}
	return r.Result.Value
}

// waitTrue polls a JavaScript condition in a tab. A condition that throws
// counts as false: between a form's submit and the next page's parse,
// document.body is briefly null. The last error is told on timeout.
// dragCard drags card id onto the column of stage with a mouse's drag
// events, as the board's drag and drop sees them.
func (b *browser) dragCard(session string, id int, stage string) {
	b.eval(session, fmt.Sprintf(`(() => {
		const card = document.querySelector('[data-testid="card-%d"]');
		const column = document.querySelector('[data-testid="stage-%s"]');
		const dt = new DataTransfer();
		card.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: dt}));
		const r = column.getBoundingClientRect();
		const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: r.left + 10, clientY: r.top + 40};
		column.dispatchEvent(new DragEvent('dragover', at));
		column.dispatchEvent(new DragEvent('drop', at));
		card.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));
		return true;
	})()`, id, stage))
}

func (b *browser) waitTrue(session, what, js string) {
	b.t.Helper()
	guarded := "(() => { try { return {ok: Boolean(" + js + ")} } catch (e) { return {ok: false, err: String(e)} } })()"
	deadline := time.Now().Add(15 * time.Second)
	for {
		r, _ := b.eval(session, guarded).(map[string]any)
		if r["ok"] == true {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s (last error: %v)", what, r["err"])
		}
		<-time.After(100 * time.Millisecond) // poll interval
	}
}

// cardIn is a script telling whether card id is in stage slug's column.
func cardIn(id int, slug string) string {
	return fmt.Sprintf(`document.querySelector('[data-testid="stage-%s"] [data-testid="card-%d"]') !== null`, slug, id)
}

func TestConsoleBoardInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		_, f := c.post(c.api("/funnels"), map[string]any{"name": "Sales", "stages": []map[string]any{
			{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}, true)
		funnel := int(f["id"].(float64))
		var cards []int
		for _, title := range []string{"Acme", "Globex"} {
			_, card := c.post(c.api("/kanban_items"), map[string]any{"funnel_id": funnel, "funnel_stage": "new",
				"item_details": map[string]any{"title": title}}, true)
			cards = append(cards, int(card["id"].(float64)))
		}
		b := startBrowser(t)

		// Sign in through the login form, as a person would.
		tab := b.open(c.base + "/app/login")
		b.waitTrue(tab, "the login form", `document.querySelector('input[name=email]')`)
		b.eval(tab, `document.querySelector('input[name=email]').value = 'admin@acme.test';
			document.querySelector('input[name=password]').value = 'long-enough-pass';
			document.querySelector('form').submit(); true`)
		b.waitTrue(tab, "the signed-in console", `document.querySelector('[data-testid=topbar]')`)

		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", funnel))
		b.eval(tab, fmt.Sprintf("location.href = %q; true", boardURL))
		b.waitTrue(tab, "the board", cardIn(cards[0], "new")+" && "+cardIn(cards[1], "new"))
		other := b.open(boardURL) // a second viewer of the same board (same browser session)
		b.waitTrue(other, "the second viewer's board", cardIn(cards[1], "new"))
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the board following changes", `document.getElementById('board').dataset.live === 'open'`)
		}

		// Drag the second card onto the Won column in the first tab.
		b.dragCard(tab, cards[1], "won")
		b.waitTrue(tab, "the dragged card in Won", cardIn(cards[1], "won"))
		b.waitTrue(other, "the move on the other viewer's board", cardIn(cards[1], "won"))

		// A move made through the REST API shows on both boards.
		if st, out := c.post(c.api(fmt.Sprintf("/kanban_items/%d/move_to_stage", cards[0])), map[string]any{"funnel_stage": "won"}, true); st != http.StatusOK {
			t.Fatalf("REST move: %d %v", st, out)
		}
		b.waitTrue(tab, "the REST move on the first board", cardIn(cards[0], "won"))
		b.waitTrue(other, "the REST move on the second board", cardIn(cards[0], "won"))

		st, body := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", funnel)), c.cookie)
		if st != http.StatusOK || !strings.Contains(column(body, "won"), fmt.Sprintf(`data-testid="card-%d"`, cards[1])) {
			t.Errorf("the server's board does not hold the dragged card in Won: %d", st)
		}
	})
}
