package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestGraphQLExplorerWorksOffline: the explorer at /graphql runs a query
// with a token, lists the schema from introspection, and every request the
// page makes stays on the server's own origin (nothing loads from a CDN).
func TestGraphQLExplorerWorksOffline(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		c.newPipeline()
		b := startBrowser(t)
		tab := b.open(c.base + "/graphql")
		b.waitTrue(tab, "the explorer", `document.getElementById('gx-run') !== null && document.readyState === 'complete'`)
		b.eval(tab, fmt.Sprintf(`(() => {
			const set = (id, v) => { const n = document.getElementById(id); n.value = v; n.dispatchEvent(new Event('input')); };
			set('gx-token', %q); set('gx-account', '%d');
			set('gx-query', '{ inboxes(first: 10) { edges { node { name channelType } } } }');
			document.getElementById('gx-run').click(); return true; })()`, c.token, c.account))
		b.waitTrue(tab, "the answer", `document.getElementById('gx-result').textContent.includes('"inboxes"')`)
		if got := b.eval(tab, `JSON.parse(document.getElementById('gx-result').textContent).data.inboxes.edges[0].node.name`); got != "API" {
			t.Errorf("the first inbox answered is %v, want API", got)
		}
		b.eval(tab, `document.getElementById('gx-schema').click(); true`)
		b.waitTrue(tab, "the schema's types", `document.querySelector('#gx-types [data-name=contact]') !== null`)
		b.eval(tab, `(() => { const f = document.getElementById('gx-filter'); f.value = 'kanbanitem'; f.dispatchEvent(new Event('input')); return true; })()`)
		if shown := b.eval(tab, `document.querySelector('#gx-types [data-name=contact]').hidden`); shown != true {
			t.Errorf("the filter left the Contact type shown")
		}
		offOrigin := b.eval(tab, `performance.getEntriesByType('resource').map(e => e.name).filter(u => new URL(u).origin !== location.origin)`)
		if list, _ := offOrigin.([]any); len(list) != 0 || offOrigin == nil {
			t.Errorf("the explorer requested other hosts: %v", offOrigin)
		}
		b.shootWidths(t, tab, "graphql-explorer")
	})
}
