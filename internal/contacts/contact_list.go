package contacts

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// ContactListParams selects and orders a page of contacts.
type ContactListParams struct {
	Sort   string
	Page   int
	Labels []string
}

var contactSorts = map[string]func(...sql.OrderTermOption) contact.OrderOption{
	"name":             contact.ByName,
	"email":            contact.ByEmail,
	"phone_number":     contact.ByPhoneNumber,
	"last_activity_at": contact.ByLastActivityAt,
	"created_at":       contact.ByCreatedAt,
}

// contactOrder parses Chatwoot's sort parameter ("name", "-last_activity_at").
// The default is most recent activity first; ties go by id so pages are stable.
func contactOrder(sort string) ([]contact.OrderOption, error) {
	if sort == "" {
		sort = "-last_activity_at"
	}
	desc := strings.HasPrefix(sort, "-")
	by, ok := contactSorts[strings.TrimPrefix(sort, "-")]
	if !ok {
		return nil, apperr.Invalidf("sort", "Unknown sort %q: use name, email, phone_number, last_activity_at or created_at, with - for descending", sort)
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	return []contact.OrderOption{by(dir, sql.OrderNullsLast()), contact.ByID(dir)}, nil
}

// ListContacts returns a page of the account's contacts; with Labels, those
// having any of them (Chatwoot's tagged_with(labels, any: true)).
func (s *Service) ListContacts(ctx context.Context, p ContactListParams) (*core.Page[*ent.Contact], error) {
	var preds []predicate.Contact
	if len(p.Labels) > 0 {
		anyLabel := make([]predicate.Contact, 0, len(p.Labels))
		for _, l := range p.Labels {
			anyLabel = append(anyLabel, hasLabel(l))
		}
		preds = append(preds, contact.Or(anyLabel...))
	}
	return s.contactPage(ctx, preds, p.Sort, p.Page)
}

func hasLabel(label string) predicate.Contact {
	return func(s *sql.Selector) {
		s.Where(sqljson.ValueContains(s.C(contact.FieldLabels), label))
	}
}

func (s *Service) contactPage(ctx context.Context, preds []predicate.Contact, sort string, page int) (*core.Page[*ent.Contact], error) {
	order, err := contactOrder(sort)
	if err != nil {
		return nil, err
	}
	if page < 1 {
		page = 1
	}
	q := s.Client(ctx).Contact.Query().Where(preds...)
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	items, err := q.Order(order...).Offset(core.PageOffset(page, ContactsPerPage)).Limit(ContactsPerPage).
		WithContactInboxes(withContactInboxes).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	if err := s.attachInboxes(ctx, items...); err != nil {
		return nil, err
	}
	return &core.Page[*ent.Contact]{
		Items: items, Total: total, Page: page,
		HasMore: core.PageOffset(page, ContactsPerPage)+len(items) < total,
	}, nil
}
