package contacts

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/core"
)

// FilterCondition is one condition of Chatwoot's filter body; QueryOperator
// (AND/OR) joins it to the next condition.
type FilterCondition struct {
	AttributeKey   string `json:"attribute_key"`
	FilterOperator string `json:"filter_operator"`
	Values         []any  `json:"values"`
	QueryOperator  string `json:"query_operator"`
}

// contactFilterKind says how a standard contact attribute is compared.
type contactFilterKind int

const (
	filterText contactFilterKind = iota
	filterAdditional
	filterLabels
	filterDate
	filterBool
	filterCustom
)

type contactFilterKey struct {
	kind      contactFilterKind
	column    string
	operators []string
}

// contactFilterKeys is Chatwoot's table of contact filter keys and the
// operators each allows (lib/filters/filter_keys.yml).
var contactFilterKeys = map[string]contactFilterKey{
	"name":             {filterText, contact.FieldName, []string{"equal_to", "not_equal_to", "contains", "does_not_contain"}},
	"email":            {filterText, contact.FieldEmail, []string{"equal_to", "not_equal_to", "contains", "does_not_contain"}},
	"phone_number":     {filterText, contact.FieldPhoneNumber, []string{"equal_to", "not_equal_to", "contains", "does_not_contain", "starts_with"}},
	"identifier":       {filterText, contact.FieldIdentifier, []string{"equal_to", "not_equal_to"}},
	"country_code":     {filterAdditional, "country_code", []string{"equal_to", "not_equal_to"}},
	"city":             {filterAdditional, "city", []string{"equal_to", "not_equal_to", "contains", "does_not_contain"}},
	"company":          {filterAdditional, "company", []string{"equal_to", "not_equal_to", "contains", "does_not_contain"}},
	"labels":           {filterLabels, contact.FieldLabels, []string{"equal_to", "not_equal_to", "is_present", "is_not_present"}},
	"created_at":       {filterDate, contact.FieldCreatedAt, []string{"is_greater_than", "is_less_than", "days_before"}},
	"last_activity_at": {filterDate, contact.FieldLastActivityAt, []string{"is_greater_than", "is_less_than", "days_before"}},
	"blocked":          {filterBool, contact.FieldBlocked, []string{"equal_to", "not_equal_to"}},
}

var customFilterOperators = []string{"equal_to", "not_equal_to", "contains", "does_not_contain", "is_present", "is_not_present", "is_greater_than", "is_less_than"}

// FilterContacts returns a page of the contacts matching conds. AND binds
// tighter than OR, as in the SQL Chatwoot builds from the same body.
func (s *Service) FilterContacts(ctx context.Context, conds []FilterCondition, page int) (*core.Page[*ent.Contact], error) {
	if err := checkFilterShape(conds); err != nil {
		return nil, err
	}
	custom, err := s.Client(ctx).CustomAttributeDefinition.Query().
		Where(customattributedefinition.AttributeModelEQ(customattributedefinition.AttributeModelContactAttribute)).
		Select(customattributedefinition.FieldAttributeKey).Strings(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	where, err := contactFilterPredicate(conds, custom, s.Now())
	if err != nil {
		return nil, err
	}
	return s.contactPage(ctx, []predicate.Contact{where}, "", page)
}

// checkFilterShape refuses an empty filter and one over the caps before
// anything is queried.
func checkFilterShape(conds []FilterCondition) error {
	if len(conds) == 0 {
		return apperr.Invalid("Filter payload must hold at least one condition", "payload")
	}
	if err := core.CheckListLen("payload", len(conds), core.MaxFilterConditions); err != nil {
		return err
	}
	for _, c := range conds {
		if err := core.CheckListLen("values", len(c.Values), core.MaxFilterValues); err != nil {
			return err
		}
		for _, v := range filterValues(c.Values) {
			if err := core.CheckSearchText("values", v); err != nil {
				return err
			}
		}
	}
	return nil
}

// contactFilterPredicate builds the WHERE of a contact filter from its
// conditions; custom are the account's contact attribute keys.
func contactFilterPredicate(conds []FilterCondition, custom []string, now time.Time) (predicate.Contact, error) {
	var groups [][]predicate.Contact
	current := []predicate.Contact{}
	for i, c := range conds {
		p, err := contactConditionPredicate(c, i, custom, now)
		if err != nil {
			return nil, err
		}
		current = append(current, p)
		op := strings.ToUpper(strings.TrimSpace(c.QueryOperator))
		switch {
		case op == "OR":
			groups = append(groups, current)
			current = []predicate.Contact{}
		case op == "AND" || op == "":
		default:
			return nil, apperr.Invalidf("query_operator", "Invalid query operator %q in condition %d: use AND or OR", c.QueryOperator, i+1)
		}
	}
	groups = append(groups, current)
	var ors []predicate.Contact
	for _, g := range groups {
		if len(g) > 0 {
			ors = append(ors, contact.And(g...))
		}
	}
	return contact.Or(ors...), nil
}

func contactConditionPredicate(c FilterCondition, i int, custom []string, now time.Time) (predicate.Contact, error) {
	key, ok := contactFilterKeys[c.AttributeKey]
	if !ok && core.ContainsString(custom, c.AttributeKey) {
		key, ok = contactFilterKey{filterCustom, c.AttributeKey, customFilterOperators}, true
	}
	if !ok {
		return nil, apperr.Invalidf("attribute_key", "Invalid attribute key %q in condition %d", c.AttributeKey, i+1)
	}
	if !core.ContainsString(key.operators, c.FilterOperator) {
		return nil, apperr.Invalidf("filter_operator", "Invalid filter operator %q for %s in condition %d: use %s",
			c.FilterOperator, c.AttributeKey, i+1, strings.Join(key.operators, ", "))
	}
	values := filterValues(c.Values)
	if len(values) == 0 && c.FilterOperator != "is_present" && c.FilterOperator != "is_not_present" {
		return nil, apperr.Invalidf("values", "Condition %d (%s) needs at least one value", i+1, c.AttributeKey)
	}
	var p func(*sql.Selector) *sql.Predicate
	var err error
	switch key.kind {
	case filterText:
		p = textCondition(key.column, c.FilterOperator, values)
	case filterAdditional:
		p = jsonTextCondition(contact.FieldAdditionalAttributes, key.column, c.FilterOperator, values)
	case filterCustom:
		p, err = customCondition(key.column, c.FilterOperator, values)
	case filterLabels:
		p = labelsCondition(c.FilterOperator, values)
	case filterDate:
		p, err = dateCondition(key.column, c.FilterOperator, values[0], now)
	case filterBool:
		p, err = boolCondition(key.column, c.FilterOperator, values[0])
	}
	if err != nil {
		return nil, apperr.Invalidf("values", "Condition %d (%s): %v", i+1, c.AttributeKey, err)
	}
	return func(s *sql.Selector) { s.Where(p(s)) }, nil
}

// filterValues turns the values of a condition into strings (clients send
// strings, numbers and booleans alike).
func filterValues(vs []any) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		switch x := v.(type) {
		case nil:
		case string:
			out = append(out, x)
		case map[string]any:
			// The console sends {id, name} objects for some keys.
			if id, ok := x["id"]; ok {
				out = append(out, fmt.Sprint(id))
			}
		default:
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}

// textCondition compares a text column ignoring case. equal_to uses the first
// value (as Chatwoot); contains matches any value, does_not_contain none.
func textCondition(col, op string, values []string) func(*sql.Selector) *sql.Predicate {
	return func(s *sql.Selector) *sql.Predicate {
		c := s.C(col)
		switch op {
		case "equal_to":
			return sql.EqualFold(c, values[0])
		case "not_equal_to":
			return sql.Or(sql.IsNull(c), sql.Not(sql.EqualFold(c, values[0])))
		case "starts_with":
			return sql.HasPrefix(c, values[0])
		case "contains":
			return anyOf(values, func(v string) *sql.Predicate { return sql.ContainsFold(c, v) })
		default: // does_not_contain
			return sql.Or(sql.IsNull(c), sql.Not(anyOf(values, func(v string) *sql.Predicate { return sql.ContainsFold(c, v) })))
		}
	}
}

func anyOf(values []string, p func(string) *sql.Predicate) *sql.Predicate {
	ps := make([]*sql.Predicate, len(values))
	for i, v := range values {
		ps[i] = p(v)
	}
	return sql.Or(ps...)
}

// jsonTextCondition compares the value stored under key in a JSON column as
// text, the same way on every engine; contains ignores case, as the
// standard text keys do.
func jsonTextCondition(col, key, op string, values []string) func(*sql.Selector) *sql.Predicate {
	return func(s *sql.Selector) *sql.Predicate {
		c := s.C(col)
		path := sqljson.Path(key)
		switch op {
		case "equal_to":
			return jsonTextCompare(c, key, "=", values[0])
		case "not_equal_to":
			return sql.Or(jsonTextIsNull(c, key), jsonTextCompare(c, key, "<>", values[0]))
		case "contains":
			return anyOf(values, func(v string) *sql.Predicate { return jsonTextContainsFold(c, key, v) })
		case "is_present":
			return sqljson.HasKey(c, path)
		case "is_not_present":
			return sql.Not(sqljson.HasKey(c, path))
		default: // does_not_contain
			return sql.Or(jsonTextIsNull(c, key),
				sql.Not(anyOf(values, func(v string) *sql.Predicate { return jsonTextContainsFold(c, key, v) })))
		}
	}
}

// writeJSONText writes the value under key of a JSON column as text:
// strings unquoted, numbers and booleans spelled as in JSON, NULL when the
// key is absent or null. SQLite's JSON_EXTRACT alone keeps numbers numeric
// and turns booleans into 1/0, which never equal the text a filter sends.
func writeJSONText(b *sql.Builder, col, key string) {
	if b.Dialect() != dialect.SQLite {
		b.Ident(col).WriteString("->>'" + strings.ReplaceAll(key, "'", "''") + "'")
		return
	}
	path := `$."` + key + `"`
	b.WriteString("(CASE JSON_TYPE(").Ident(col).Comma().Arg(path).
		WriteString(") WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(JSON_EXTRACT(").
		Ident(col).Comma().Arg(path).WriteString(") AS TEXT) END)")
}

func jsonTextCompare(col, key, op, value string) *sql.Predicate {
	return sql.P(func(b *sql.Builder) {
		writeJSONText(b, col, key)
		b.WriteString(" " + op + " ").Arg(value)
	})
}

func jsonTextIsNull(col, key string) *sql.Predicate {
	return sql.P(func(b *sql.Builder) {
		writeJSONText(b, col, key)
		b.WriteString(" IS NULL")
	})
}

// jsonTextContainsFold is LOWER(text) LIKE '%value%', with value's wildcards
// escaped.
func jsonTextContainsFold(col, key, value string) *sql.Predicate {
	escaped := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(value))
	return sql.P(func(b *sql.Builder) {
		b.WriteString("LOWER(")
		writeJSONText(b, col, key)
		b.WriteString(") LIKE ").Arg("%" + escaped + "%").WriteString(` ESCAPE '\'`)
	})
}

// customCondition compares a custom attribute: numbers compare as numbers.
func customCondition(key, op string, values []string) (func(*sql.Selector) *sql.Predicate, error) {
	if op != "is_greater_than" && op != "is_less_than" {
		return jsonTextCondition(contact.FieldCustomAttributes, key, op, values), nil
	}
	n, err := strconv.ParseFloat(values[0], 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number", values[0])
	}
	return func(s *sql.Selector) *sql.Predicate {
		c, path := s.C(contact.FieldCustomAttributes), sqljson.Path(key)
		if op == "is_greater_than" {
			return sqljson.ValueGT(c, n, path)
		}
		return sqljson.ValueLT(c, n, path)
	}, nil
}

func labelsCondition(op string, values []string) func(*sql.Selector) *sql.Predicate {
	return func(s *sql.Selector) *sql.Predicate {
		c := s.C(contact.FieldLabels)
		switch op {
		case "equal_to":
			return anyOf(values, func(v string) *sql.Predicate { return sqljson.ValueContains(c, v) })
		case "not_equal_to":
			return sql.Not(anyOf(values, func(v string) *sql.Predicate { return sqljson.ValueContains(c, v) }))
		case "is_present":
			return sqljson.LenGT(c, 0)
		default: // is_not_present
			return sql.Not(sqljson.LenGT(c, 0))
		}
	}
}

// dateCondition compares a time column with a date (is_greater_than,
// is_less_than) or with "N days ago" (days_before).
func dateCondition(col, op, value string, now time.Time) (func(*sql.Selector) *sql.Predicate, error) {
	var t time.Time
	if op == "days_before" {
		days, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || days < 0 {
			return nil, fmt.Errorf("days_before needs a whole number of days, got %q", value)
		}
		t = now.AddDate(0, 0, -days)
	} else {
		var err error
		if t, err = coerce.Day(value); err != nil {
			return nil, err
		}
	}
	return func(s *sql.Selector) *sql.Predicate {
		if op == "is_greater_than" {
			return sql.GT(s.C(col), t)
		}
		return sql.LT(s.C(col), t)
	}, nil
}

func boolCondition(col, op, value string) (func(*sql.Selector) *sql.Predicate, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(value))
	if err != nil {
		return nil, fmt.Errorf("%q is not true or false", value)
	}
	if op == "not_equal_to" {
		b = !b
	}
	return func(s *sql.Selector) *sql.Predicate { return sql.EQ(s.C(col), b) }, nil
}
