package graph

import (
	"entgo.io/contrib/entgql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Connections cost what they may return: a page of n items costs n times
// its selection, so nesting large pages runs into maxComplexity. Without
// first or last, a connection costs its default page: maxPage where the
// resolver bounds it (checkPage), unboundedPage where nothing does.
const (
	maxPage       = 100
	unboundedPage = 1000
	listPage      = 25
)

func pageCost(child int, first, last *int, unbounded int) int {
	n := unbounded
	switch {
	case first != nil:
		n = *first
	case last != nil:
		n = *last
	}
	return 1 + child*max(n, 1)
}

// complexity prices the fields that return many items.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	c.Query.Contacts = func(child int, _ *entgql.Cursor[int], first *int, _ *entgql.Cursor[int], last *int, _ []*ent.ContactOrder, _ *ent.ContactWhereInput) int {
		return pageCost(child, first, last, maxPage)
	}
	c.Conversation.Messages = func(child int, _ *entgql.Cursor[int], first *int, _ *entgql.Cursor[int], last *int, _ *ent.MessageOrder, _ *ent.MessageWhereInput) int {
		return pageCost(child, first, last, unboundedPage)
	}
	c.Query.SearchContacts = func(child int, _ string, _ *string, _ *int) int { return 1 + child*15 }
	c.Query.FilterContacts = func(child int, _ []*model.FilterConditionInput, _ *int) int { return 1 + child*15 }
	c.Query.Conversations = func(child int, _ *string, _ *string, _ *int, _ *int, _ []string, _ *int) int {
		return 1 + child*listPage
	}
	return c
}

// checkPage bounds a top-level connection: at most maxPage items, and
// maxPage when neither first nor last is given.
func checkPage(first, last *int) (*int, error) {
	for _, n := range []*int{first, last} {
		if n != nil && (*n < 0 || *n > maxPage) {
			return nil, apperr.Invalidf("first", "first and last must be between 0 and %d", maxPage)
		}
	}
	if first == nil && last == nil {
		n := maxPage
		return &n, nil
	}
	return first, nil
}
