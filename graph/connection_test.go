package graph_test

// Relay's cursor connection spec on every collection: one connection per
// collection, paged forwards (first/after) and backwards (last/before),
// cursors that name the same item whichever page it came on, a totalCount
// independent of the page, and a page bound refused with a clear code.

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

const labelPage = `query($first: Int, $after: Cursor, $last: Int, $before: Cursor, $order: [LabelOrder!]) {
  labels(first: $first, after: $after, last: $last, before: $before, orderBy: $order) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { title } }
  }
}`

// connPage is one page of the labels connection.
type connPage struct {
	total              float64
	titles, cursors    []string
	hasNext, hasPrev   bool
	startCur, endCur   any
	startPage, endPage string
}

func (a *app) labelsPage(t *testing.T, vars H) connPage {
	t.Helper()
	r := a.gqlOK(t, labelPage, vars)
	p := connPage{total: mustGet(t, r.Data, "labels.totalCount").(float64),
		hasNext:  mustGet(t, r.Data, "labels.pageInfo.hasNextPage").(bool),
		hasPrev:  mustGet(t, r.Data, "labels.pageInfo.hasPreviousPage").(bool),
		startCur: mustGet(t, r.Data, "labels.pageInfo.startCursor"),
		endCur:   mustGet(t, r.Data, "labels.pageInfo.endCursor")}
	for _, e := range mustGet(t, r.Data, "labels.edges").([]any) {
		p.titles = append(p.titles, mustGet(t, e, "node.title").(string))
		p.cursors = append(p.cursors, mustGet(t, e, "cursor").(string))
	}
	return p
}

func TestConnectionSpec(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		titles := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"}
		// Created out of order, so id order and title order differ.
		for _, i := range []int{3, 0, 6, 1, 5, 2, 4} {
			a.mustREST("POST", base+"/labels", a.Admin, H{"title": titles[i]}, http.StatusOK)
		}
		byTitle := []H{{"field": "TITLE"}}
		whole := a.labelsPage(t, H{"first": 100, "order": byTitle})
		if !reflect.DeepEqual(whole.titles, titles) || whole.hasNext || whole.total != 7 {
			t.Fatalf("the whole list by title: %+v", whole)
		}
		cursorOf := map[string]string{}
		for i, title := range whole.titles {
			cursorOf[title] = whole.cursors[i]
		}

		t.Run("forwards by first/after: every item once, cursors as on the whole page", func(t *testing.T) {
			var seen []string
			var after any
			for pages := 0; ; pages++ {
				if pages > 5 {
					t.Fatalf("paging does not end: %v", seen)
				}
				p := a.labelsPage(t, H{"first": 3, "after": after, "order": byTitle})
				if p.total != 7 {
					t.Errorf("totalCount %v on a page of 3, want 7", p.total)
				}
				for i, title := range p.titles {
					if p.cursors[i] != cursorOf[title] {
						t.Errorf("%s's cursor differs between pages", title)
					}
				}
				seen = append(seen, p.titles...)
				if !p.hasNext {
					break
				}
				after = p.endCur
			}
			if !reflect.DeepEqual(seen, titles) {
				t.Errorf("forwards: %v, want %v", seen, titles)
			}
		})

		t.Run("backwards by last/before: every item once, in order within each page", func(t *testing.T) {
			var seen []string
			var before any
			for pages := 0; ; pages++ {
				if pages > 5 {
					t.Fatalf("paging does not end: %v", seen)
				}
				p := a.labelsPage(t, H{"last": 3, "before": before, "order": byTitle})
				for i, title := range p.titles {
					if p.cursors[i] != cursorOf[title] {
						t.Errorf("%s's cursor differs between pages", title)
					}
				}
				seen = append(slices.Clone(p.titles), seen...)
				if !p.hasPrev {
					break
				}
				before = p.startCur
			}
			if !reflect.DeepEqual(seen, titles) {
				t.Errorf("backwards: %v, want %v", seen, titles)
			}
		})

		t.Run("first after a cursor starts right after it", func(t *testing.T) {
			p := a.labelsPage(t, H{"first": 2, "after": cursorOf["bravo"], "order": byTitle})
			if !reflect.DeepEqual(p.titles, []string{"charlie", "delta"}) || !p.hasNext {
				t.Errorf("after bravo: %+v", p)
			}
		})
		t.Run("last before a cursor ends right before it", func(t *testing.T) {
			p := a.labelsPage(t, H{"last": 2, "before": cursorOf["foxtrot"], "order": byTitle})
			if !reflect.DeepEqual(p.titles, []string{"delta", "echo"}) || !p.hasPrev {
				t.Errorf("before foxtrot: %+v", p)
			}
		})
		t.Run("descending order pages the other way", func(t *testing.T) {
			desc := []H{{"field": "TITLE", "direction": "DESC"}}
			first := a.labelsPage(t, H{"first": 4, "order": desc})
			next := a.labelsPage(t, H{"first": 4, "after": first.endCur, "order": desc})
			got := append(first.titles, next.titles...)
			want := slices.Clone(titles)
			slices.Reverse(want)
			if !reflect.DeepEqual(got, want) || next.hasNext {
				t.Errorf("descending: %v, want %v", got, want)
			}
		})
		t.Run("the default order is by id, the order of creation", func(t *testing.T) {
			p := a.labelsPage(t, H{"first": 3})
			if !reflect.DeepEqual(p.titles, []string{"delta", "alpha", "golf"}) {
				t.Errorf("by id: %v", p.titles)
			}
		})
	})
}

// TestEveryCollectionIsABoundedConnection: each collection answers a page
// with totalCount, and refuses a missing or oversized page with
// BAD_USER_INPUT naming first, before anything runs.
func TestEveryCollectionIsABoundedConnection(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.inbox(a.Account, a.Admin, "Support", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		for range 3 {
			a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, H{"content": "hi"}, http.StatusOK)
		}
		collections := []struct {
			name  string
			total int
		}{{"contacts", 1}, {"conversations", 1}, {"inboxes", 1}, {"labels", 0}, {"teams", 0},
			{"agents", 1}, {"funnels", 0}, {"kanbanItems", 0}, {"scheduledMessages", 0}}
		var cases []gqlCase
		for _, c := range collections {
			name, total := c.name, c.total
			cases = append(cases,
				gqlCase{name: name + " pages with totalCount", query: fmt.Sprintf(`{ %s(first: 1) { totalCount pageInfo { hasNextPage } edges { cursor node { id } } } }`, name),
					want: H{name + ".totalCount": total}},
				gqlCase{name: name + " without first or last", query: fmt.Sprintf(`{ %s { totalCount } }`, name),
					code: "BAD_USER_INPUT", attrs: []string{"first"}},
				gqlCase{name: name + " with first over 100", query: fmt.Sprintf(`{ %s(first: 101) { totalCount } }`, name),
					code: "BAD_USER_INPUT", attrs: []string{"first"}},
				gqlCase{name: name + " with last over 100", query: fmt.Sprintf(`{ %s(last: 101) { totalCount } }`, name),
					code: "BAD_USER_INPUT", attrs: []string{"first"}})
		}
		msgs := fmt.Sprintf(`{ conversation(displayID: %d) { messages%%s { totalCount edges { node { content } } } } }`, conv)
		cases = append(cases,
			gqlCase{name: "a conversation's messages page", query: fmt.Sprintf(msgs, "(last: 2)"),
				want: H{"conversation.messages.totalCount": 3}},
			gqlCase{name: "a conversation's messages without first or last", query: fmt.Sprintf(msgs, ""),
				code: "BAD_USER_INPUT", attrs: []string{"first"}},
			gqlCase{name: "a conversation's messages over 100", query: fmt.Sprintf(msgs, "(first: 101)"),
				code: "BAD_USER_INPUT", attrs: []string{"first"}},
			gqlCase{name: "the old names are gone", query: `{ inboxesConnection(first: 1) { totalCount } }`,
				status: http.StatusUnprocessableEntity, code: "GRAPHQL_VALIDATION_FAILED"})
		a.run(t, cases)
	})
}
