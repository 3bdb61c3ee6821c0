package contacts

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contactsearch"
	"github.com/switchboard/switchboard/internal/core"
)

// SearchCountWindow bounds the work of counting search matches: a search
// counts at most this many matches past the start of the requested page.
const SearchCountWindow = 1000

// SearchContacts finds contacts whose name, e-mail, phone number or
// identifier contain q (ignoring case), a page at a time.
//
// Page.Total counts the matches up to SearchCountWindow past the start of
// the page: exact when fewer match, offset + SearchCountWindow ("at least")
// otherwise, so a client paging by count always sees more pages while there
// are more. HasMore is always exact. Chatwoot itself reports the page's size.
func (s *Service) SearchContacts(ctx context.Context, q, sort string, page int) (*core.Page[*ent.Contact], error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, apperr.Invalid("Specify search string with parameter q", "q")
	}
	if err := core.CheckSearchText("q", q); err != nil {
		return nil, err
	}
	order, err := contactOrder(sort)
	if err != nil {
		return nil, err
	}
	if page < 1 {
		page = 1
	}
	offset := core.PageOffset(page, ContactsPerPage)
	total, err := s.countMatches(ctx, q, offset)
	if err != nil {
		return nil, apperr.From(err)
	}
	// Many matches in the default order: reading contacts in that order
	// finds a page of them soonest (contactsearch.Match).
	walk := total == offset+SearchCountWindow && defaultContactSort(sort)
	items, err := s.Client(ctx).Contact.Query().Where(contactsearch.Match(q, walk)).
		Order(order...).Offset(offset).Limit(ContactsPerPage).WithContactInboxes(withContactInboxes).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	if err := s.attachInboxes(ctx, items...); err != nil {
		return nil, err
	}
	return &core.Page[*ent.Contact]{
		Items: items, Total: total, AtLeast: total == offset+SearchCountWindow, Page: page,
		HasMore: offset+len(items) < total,
	}, nil
}

// countMatches counts q's matches from offset on, up to SearchCountWindow,
// and adds offset: the matches' ids in any order, a window of them, need no
// sort and stop early. Only a page past the last match counts them all.
func (s *Service) countMatches(ctx context.Context, q string, offset int) (int, error) {
	match := s.Client(ctx).Contact.Query().Where(contactsearch.Match(q, false))
	window, err := match.Clone().Offset(offset).Limit(SearchCountWindow).IDs(ctx)
	if err != nil {
		return 0, err
	}
	if len(window) > 0 || offset == 0 {
		return offset + len(window), nil
	}
	return match.Count(ctx)
}

func defaultContactSort(sort string) bool { return sort == "" || sort == "-last_activity_at" }
