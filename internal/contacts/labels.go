package contacts

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/label"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// LabelInput carries the fields of a label create or update; nil means "not sent".
type LabelInput struct {
	Title         *string
	Description   *string
	Color         *string
	ShowOnSidebar *bool
}

// Labels lists the account's labels by title.
func (s *Service) Labels(ctx context.Context) ([]*ent.Label, error) {
	ls, err := s.Client(ctx).Label.Query().Order(ent.Asc(label.FieldTitle)).All(ctx)
	return ls, core.ApperrOrNil(err)
}

// Label returns one label.
func (s *Service) Label(ctx context.Context, id int) (*ent.Label, error) {
	l, err := s.Client(ctx).Label.Get(ctx, id)
	return l, core.ApperrOrNil(core.NotFound(err, "Label"))
}

// CreateLabel creates a label (administrators only). Titles are stored
// lower-cased, so uniqueness ignores case.
func (s *Service) CreateLabel(ctx context.Context, in LabelInput) (*ent.Label, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if in.Title == nil {
		return nil, apperr.Invalid("Title can't be blank", "title")
	}
	title, err := s.checkLabel(ctx, 0, in)
	if err != nil {
		return nil, err
	}
	l, err := s.Client(ctx).Label.Create().SetTitle(title).
		SetNillableDescription(in.Description).SetNillableColor(in.Color).
		SetNillableShowOnSidebar(in.ShowOnSidebar).Save(ctx)
	return l, core.ApperrOrNil(err)
}

// UpdateLabel changes a label (administrators only). A renamed label is
// renamed on the conversations and contacts that carry it.
func (s *Service) UpdateLabel(ctx context.Context, id int, in LabelInput) (*ent.Label, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var out *ent.Label
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		l, err := c.Label.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Label")
		}
		title := l.Title
		if in.Title != nil {
			if title, err = s.checkLabel(ctx, id, in); err != nil {
				return err
			}
		} else if _, err := s.checkLabel(ctx, id, LabelInput{Title: &l.Title, Color: in.Color}); err != nil {
			return err
		}
		if title != l.Title {
			if err := replaceLabelEverywhere(ctx, c, l.Title, title); err != nil {
				return err
			}
		}
		out, err = l.Update().SetTitle(title).SetNillableDescription(in.Description).
			SetNillableColor(in.Color).SetNillableShowOnSidebar(in.ShowOnSidebar).Save(ctx)
		return err
	})
	return out, core.ApperrOrNil(err)
}

// DeleteLabel deletes a label and removes it from the conversations and
// contacts that carry it (administrators only).
func (s *Service) DeleteLabel(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		l, err := c.Label.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Label")
		}
		if err := replaceLabelEverywhere(ctx, c, l.Title, ""); err != nil {
			return err
		}
		return c.Label.DeleteOne(l).Exec(ctx)
	}))
}

// checkLabel validates a label's title and colour and returns the title as
// stored (lower-cased).
func (s *Service) checkLabel(ctx context.Context, selfID int, in LabelInput) (string, error) {
	var errs core.FieldErrors
	title := strings.ToLower(strings.TrimSpace(core.Deref(in.Title)))
	switch {
	case title == "":
		errs.Add("title", "Title can't be blank")
	case label.TitleValidator(title) != nil: // the schema's pattern
		errs.Add("title", "Title may only contain letters, digits, '-' and '_' (no spaces)")
	}
	if in.Color != nil && label.ColorValidator(*in.Color) != nil {
		errs.Add("color", "Color must be a hex colour like #1f93ff")
	}
	if err := errs.Err(); err != nil {
		return "", err
	}
	taken, err := s.Client(ctx).Label.Query().Where(label.Title(title), label.IDNEQ(selfID)).Exist(ctx)
	if err != nil {
		return "", err
	}
	if taken {
		return "", apperr.Invalid("Title has already been taken", "title")
	}
	return title, nil
}

// replaceLabelEverywhere renames a label title on every conversation and
// contact of the account that carries it ("" removes it).
func replaceLabelEverywhere(ctx context.Context, c *ent.Client, from, to string) error {
	carries := func(s *sql.Selector) { s.Where(sqljson.ValueContains(s.C(contact.FieldLabels), from)) }
	convs, err := c.Conversation.Query().Where(carries).All(ctx)
	if err != nil {
		return err
	}
	for _, cv := range convs {
		if err := c.Conversation.UpdateOne(cv).SetLabels(renameLabel(cv.Labels, from, to)).Exec(ctx); err != nil {
			return err
		}
	}
	cts, err := c.Contact.Query().Where(carries).All(ctx)
	if err != nil {
		return err
	}
	for _, ct := range cts {
		if err := c.Contact.UpdateOne(ct).SetLabels(renameLabel(ct.Labels, from, to)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func renameLabel(labels []string, from, to string) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if l == from {
			l = to
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return CleanLabels(out)
}

// ContactLabels returns a contact's labels.
func (s *Service) ContactLabels(ctx context.Context, id int) ([]string, error) {
	ct, err := s.Client(ctx).Contact.Get(ctx, id)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Contact"))
	}
	return ct.Labels, nil
}

// SetContactLabels replaces a contact's labels with labels (LabelList's).
func (s *Service) SetContactLabels(ctx context.Context, id int, labels []string) ([]string, error) {
	clean, err := LabelList(labels)
	if err != nil {
		return nil, err
	}
	ct, err := s.Client(ctx).Contact.UpdateOneID(id).SetLabels(clean).Save(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Contact"))
	}
	return ct.Labels, nil
}

// LabelList reads the labels sent for a conversation or a contact as
// Chatwoot's tag lists are read: any text, a comma separating two labels,
// blanks and repeats dropped. Each is at most a name's length. A label
// "a,b" stored whole was found by GraphQL's filter and by no REST one
// (labels[] splits on commas).
func LabelList(labels []string) ([]string, error) {
	var split []string
	for _, l := range labels {
		split = append(split, strings.Split(l, ",")...)
	}
	out := CleanLabels(split)
	for _, l := range out {
		if utf8.RuneCountInString(l) > schema.MaxNameRunes {
			return nil, apperr.Invalid(fmt.Sprintf("Labels are at most %d characters each", schema.MaxNameRunes), "labels")
		}
	}
	return out, nil
}

// CleanLabels trims labels and drops blanks and repeats, keeping the order.
func CleanLabels(labels []string) []string {
	out := make([]string, 0, len(labels))
	seen := map[string]bool{}
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}
