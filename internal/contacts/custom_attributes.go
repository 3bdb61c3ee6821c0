package contacts

import (
	"context"
	"strconv"
	"strings"

	"github.com/switchboard/switchboard/ent"
	cad "github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// CustomAttributeInput carries the fields of a custom attribute definition;
// nil means "not sent".
type CustomAttributeInput struct {
	DisplayName  *string
	Key          *string
	DisplayType  *string
	Model        *string
	Description  *string
	Values       []string
	RegexPattern *string
	RegexCue     *string
}

// ParseAttributeModel reads Chatwoot's attribute_model in any of its
// spellings. The integers are Chatwoot's Rails enum
// (conversation_attribute: 0, contact_attribute: 1), which clients that
// follow its database send.
func ParseAttributeModel(s string) (cad.AttributeModel, bool) {
	switch strings.TrimSpace(s) {
	case "conversation_attribute", "conversation", "0":
		return cad.AttributeModelConversationAttribute, true
	case "contact_attribute", "contact", "1":
		return cad.AttributeModelContactAttribute, true
	}
	return "", false
}

// attributeDisplayTypes is Chatwoot's attribute_display_type enum in its
// integer order (text: 0 ... checkbox: 7); the index is the integer form.
var attributeDisplayTypes = []cad.AttributeDisplayType{
	cad.AttributeDisplayTypeText, cad.AttributeDisplayTypeNumber, cad.AttributeDisplayTypeCurrency,
	cad.AttributeDisplayTypePercent, cad.AttributeDisplayTypeLink, cad.AttributeDisplayTypeDate,
	cad.AttributeDisplayTypeList, cad.AttributeDisplayTypeCheckbox,
}

// ParseAttributeDisplayType reads attribute_display_type as its name or as
// Chatwoot's integer.
func ParseAttributeDisplayType(s string) (cad.AttributeDisplayType, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= len(attributeDisplayTypes) {
			return "", false
		}
		return attributeDisplayTypes[n], true
	}
	t := cad.AttributeDisplayType(s)
	return t, cad.AttributeDisplayTypeValidator(t) == nil
}

// CustomAttributeDefinitions lists the account's definitions, of one model
// when model is set (all of them, as Chatwoot answers).
func (s *Service) CustomAttributeDefinitions(ctx context.Context, model string) ([]*ent.CustomAttributeDefinition, error) {
	q, err := s.definitionsQuery(ctx, model)
	if err != nil {
		return nil, err
	}
	defs, err := q.All(ctx)
	return defs, core.ApperrOrNil(err)
}

// DefinitionsPerPage is the length of a page of definitions: a page of
// list attributes holds at most this many times schema.MaxListItems values.
const DefinitionsPerPage = 25

// CustomAttributeDefinitionsPage is one page of CustomAttributeDefinitions.
func (s *Service) CustomAttributeDefinitionsPage(ctx context.Context, model string, page int) ([]*ent.CustomAttributeDefinition, error) {
	q, err := s.definitionsQuery(ctx, model)
	if err != nil {
		return nil, err
	}
	defs, err := q.Offset(core.PageOffset(page, DefinitionsPerPage)).Limit(DefinitionsPerPage).All(ctx)
	return defs, core.ApperrOrNil(err)
}

// definitionsQuery is the account's definitions in id order, of one model
// when model is set.
func (s *Service) definitionsQuery(ctx context.Context, model string) (*ent.CustomAttributeDefinitionQuery, error) {
	q := s.Client(ctx).CustomAttributeDefinition.Query().Order(ent.Asc(cad.FieldID))
	if model == "" {
		return q, nil
	}
	m, ok := ParseAttributeModel(model)
	if !ok {
		return nil, apperr.Invalid("Attribute model must be contact_attribute or conversation_attribute", "attribute_model")
	}
	return q.Where(cad.AttributeModelEQ(m)), nil
}

// CustomAttributeDefinition returns one definition.
func (s *Service) CustomAttributeDefinition(ctx context.Context, id int) (*ent.CustomAttributeDefinition, error) {
	d, err := s.Client(ctx).CustomAttributeDefinition.Get(ctx, id)
	return d, core.ApperrOrNil(core.NotFound(err, "Custom attribute definition"))
}

// CreateCustomAttributeDefinition declares a custom attribute (administrators only).
func (s *Service) CreateCustomAttributeDefinition(ctx context.Context, in CustomAttributeInput) (*ent.CustomAttributeDefinition, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	display := trimmed(in.DisplayName)
	key := trimmed(in.Key)
	if display == "" {
		errs.Add("attribute_display_name", "Attribute display name can't be blank")
	}
	if key == "" {
		errs.Add("attribute_key", "Attribute key can't be blank")
	}
	model, ok := ParseAttributeModel(trimmed(in.Model))
	if !ok {
		errs.Add("attribute_model", "Attribute model must be contact_attribute or conversation_attribute")
	}
	displayType := checkDisplayType(in.DisplayType, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	taken, err := s.Client(ctx).CustomAttributeDefinition.Query().
		Where(cad.AttributeKey(key), cad.AttributeModelEQ(model)).Exist(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	if taken {
		return nil, apperr.Invalid("Attribute key has already been taken", "attribute_key")
	}
	create := s.Client(ctx).CustomAttributeDefinition.Create().
		SetAttributeDisplayName(display).SetAttributeKey(key).SetAttributeModel(model).
		SetNillableAttributeDescription(in.Description).
		SetNillableRegexPattern(in.RegexPattern).SetNillableRegexCue(in.RegexCue)
	if displayType != "" {
		create.SetAttributeDisplayType(displayType)
	}
	if in.Values != nil {
		create.SetAttributeValues(in.Values)
	}
	d, err := create.Save(ctx)
	return d, core.ApperrOrNil(err)
}

// UpdateCustomAttributeDefinition changes a definition; its key and model
// stay, since stored values hang on them.
func (s *Service) UpdateCustomAttributeDefinition(ctx context.Context, id int, in CustomAttributeInput) (*ent.CustomAttributeDefinition, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	if in.DisplayName != nil && trimmed(in.DisplayName) == "" {
		errs.Add("attribute_display_name", "Attribute display name can't be blank")
	}
	displayType := checkDisplayType(in.DisplayType, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	d, err := s.CustomAttributeDefinition(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := d.Update().SetNillableAttributeDescription(in.Description).
		SetNillableRegexPattern(in.RegexPattern).SetNillableRegexCue(in.RegexCue)
	if in.DisplayName != nil {
		upd.SetAttributeDisplayName(trimmed(in.DisplayName))
	}
	if displayType != "" {
		upd.SetAttributeDisplayType(displayType)
	}
	if in.Values != nil {
		upd.SetAttributeValues(in.Values)
	}
	d, err = upd.Save(ctx)
	return d, core.ApperrOrNil(err)
}

// DeleteCustomAttributeDefinition removes a definition (administrators only).
func (s *Service) DeleteCustomAttributeDefinition(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(core.NotFound(s.Client(ctx).CustomAttributeDefinition.DeleteOneID(id).Exec(ctx), "Custom attribute definition"))
}

// checkDisplayType returns the display type sent ("" when none) or records
// why it is not one.
func checkDisplayType(t *string, errs *core.FieldErrors) cad.AttributeDisplayType {
	if t == nil {
		return ""
	}
	dt, ok := ParseAttributeDisplayType(*t)
	if !ok {
		errs.Add("attribute_display_type", "Attribute display type must be one of text, number, currency, percent, link, date, list, checkbox (or 0-7)")
		return ""
	}
	return dt
}

func trimmed(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}
