package web_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Screens for the console's browser tests: signing a tab in, the window
// sizes every flow is checked at, and screenshots kept as test artifacts
// (go test -artifacts keeps them; see testing.T.ArtifactDir).

// The widths every flow is shot at: a laptop and a phone.
var screenWidths = []int{1400, 390}

// signInTab signs a new tab in through the login form, as a person would,
// as the account's administrator.
func (b *browser) signInTab(base string) string {
	b.t.Helper()
	return b.signInTabAs(base, "admin@acme.test", "long-enough-pass")
}

// signInTabAs is signInTab as another user. The browser keeps one session
// cookie: the tabs signed in before are then this user's too.
func (b *browser) signInTabAs(base, email, password string) string {
	b.t.Helper()
	tab := b.open(base + "/app/login")
	// The whole form: a page still being parsed had its e-mail input and
	// not yet its password's (seen once, on a loaded machine).
	b.waitTrue(tab, "the login form", `document.readyState !== 'loading' && document.querySelector('input[name=password]')`)
	b.eval(tab, fmt.Sprintf(`document.querySelector('input[name=email]').value = %q;
		document.querySelector('input[name=password]').value = %q;
		document.querySelector('form').submit(); true`, email, password))
	b.waitTrue(tab, "the signed-in console", `document.querySelector('[data-testid=topbar]')`)
	return tab
}

// goTo navigates a tab and waits for what says the new page is there (the
// old page is marked, so its own ready state does not count).
func (b *browser) goTo(tab, url, what, ready string) {
	b.t.Helper()
	b.eval(tab, fmt.Sprintf("window.leaving = true; location.href = %q; true", url))
	// "complete": the stylesheet is applied too. The page's elements are
	// there before it, and a computed style read then is the browser's
	// default (CI saw every card of a board the same colour).
	b.waitTrue(tab, what, "!window.leaving && document.readyState === 'complete' && ("+ready+")")
}

// setWidth makes the tab's window width px wide (a phone below 500 px:
// mobile emulation, so the viewport meta applies).
func (b *browser) setWidth(tab string, width int) {
	b.t.Helper()
	b.call(tab, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500,
	}, nil)
	b.waitTrue(tab, fmt.Sprintf("a %d px window", width), fmt.Sprintf("window.innerWidth === %d", width))
}

// shoot saves a PNG of the tab's window under the test's artifact directory.
func (b *browser) shoot(t *testing.T, tab, name string) string {
	t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	// Only the tab in front paints: a test with a second viewer open
	// would wait for ever on the one behind.
	b.call(tab, "Page.bringToFront", map[string]any{}, nil)
	b.call(tab, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
	return path
}

// shootWidths shoots the tab at every screen width, checking at each that
// the document is no wider than the window; it leaves the tab at 1400 px.
func (b *browser) shootWidths(t *testing.T, tab, name string) {
	t.Helper()
	for _, w := range screenWidths {
		b.setWidth(tab, w)
		overflow := b.eval(tab, `document.documentElement.scrollWidth - window.innerWidth`)
		if n, _ := overflow.(float64); n > 0 {
			t.Errorf("%s at %d px: the document is %v px wider than the window", name, w, n)
		}
		b.shoot(t, tab, fmt.Sprintf("%s-%d", name, w))
	}
	b.setWidth(tab, screenWidths[0])
}
