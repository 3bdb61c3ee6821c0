package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestConsoleContactSearchShowsABoundedCount: a search counts matches only up
// to contacts.SearchCountWindow past the page's start, and the console says so
// ("1000+"); an exact count and the contact list show the plain number.
func TestConsoleContactSearchShowsABoundedCount(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		sys := viewer.SystemContext(context.Background())
		n := contacts.SearchCountWindow + 10
		for from := 0; from < n; from += 200 {
			var builders []*ent.ContactCreate
			for i := from; i < min(from+200, n); i++ {
				builders = append(builders, c.srv.DB.Client.Contact.Create().SetAccountID(c.account).SetName(fmt.Sprintf("Match %d", i)))
			}
			if err := c.srv.DB.Client.Contact.CreateBulk(builders...).Exec(sys); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct{ path, total string }{
			{c.app("/contacts?q=match"), fmt.Sprintf("%d+", contacts.SearchCountWindow)},
			{c.app("/contacts?q=match&page=2"), fmt.Sprintf("%d", n)},
			{c.app("/contacts?q=match+1009"), "1"},
			{c.app("/contacts"), fmt.Sprintf("%d", n)},
		} {
			status, body := c.page(tc.path, c.cookie)
			want := `data-testid="contacts-total">` + tc.total + `<`
			if status != http.StatusOK || !strings.Contains(body, want) {
				t.Errorf("%s: %d, want %s in the page", tc.path, status, want)
			}
		}
	})
}
