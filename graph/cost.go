package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/webhooks"
)

// The cost of a query is what it may return: every field costs 1, and a
// field that returns a list costs its bound times its own selection. A
// connection's bound is its first or last argument, which is required and
// at most maxPage; a plain list's bound is listBound's, which
// InterceptField enforces on every result, so the estimate holds.
const (
	defaultListBound  = 100
	memberListBound   = 500  // the account's members (agents, an inbox's or team's members)
	mutationListBound = 1000 // a bulk change's results
	importListBound   = 5000 // a CSV import's rows (ops refuses more)
	// A payload's userErrors: one per failing input field.
	userErrorBound = 50
)

// listBounds are the plain list fields bounded otherwise than
// defaultListBound: pages bounded by their resolvers, and account-wide
// lists. Connections' edges are bounded by first/last instead.
var listBounds = map[string]int{
	"ContactPage.nodes":          15, // contacts.ContactsPerPage
	"ConversationListPage.nodes": conversations.ConversationsPerPage,
	"KanbanItemPage.nodes":       kanban.MaxCardPage,
	// Capped per account where they are written (ent's account caps).
	"Query.agentBots":                  schema.MaxAccountObjects,
	"Query.kanbanAutomations":          schema.MaxAccountObjects,
	"Query.webhooks":                   schema.MaxAccountObjects,
	"Query.contactableInboxes":         schema.MaxAccountObjects, // the account's inboxes at most
	"Query.inboxMembers":               memberListBound,
	"Query.teamMembers":                memberListBound,
	"Query.customAttributeDefinitions": contacts.DefinitionsPerPage,
	// Stored JSON lists are capped where they are written (ent's data
	// limits hook).
	"CustomAttributeDefinition.attributeValues": schema.MaxListItems,
	"Query.webhookDeliveries":                   webhooks.DeliveriesPerPage,
	// A webhook subscribes to each event at most once (the operation keeps
	// them unique and known).
	"Webhook.subscriptions": len(webhooks.WebhookEvents),
	// Attempt logs are listed latest first up to a bound (the operations').
	"Query.webhookDeliveryAttempts": core.MaxAttemptsListed,
	"Query.messageDeliveryAttempts": core.MaxAttemptsListed,
	"KanbanImportResult.created":    importListBound,
	"KanbanImportResult.errors":     importListBound,
	// A preview's columns: the header row's, cut past 1000; its rows are
	// kanban.PreviewRows.
	"KanbanImportPreview.columns": 1000,
	"KanbanImportPreview.rows":    kanban.PreviewRows,
	"KanbanImportPreview.targets": len(kanban.ImportTargets),
	// A message or schedule holds at most core.MaxAttachments files (the
	// operations refuse more).
	"Message.attachments":          core.MaxAttachments,
	"ScheduledMessage.attachments": core.MaxAttachments,
	// An input path is as deep as the schema's inputs nest.
	"UserError.field": 10,
	// A board's columns and each card's agents, capped where they are
	// written (kanban's stage plan, ent's card hook): a board query with a
	// page of cards per stage prices by them, not by defaultListBound.
	"Funnel.stages":           core.MaxFunnelStages,
	"FunnelStageStats.stages": core.MaxFunnelStages,
	// A report's lists: its stages (every funnel its cards went through),
	// periods (the operation refuses more) and agents.
	"KanbanReport.byStage":  maxReportStages,
	"KanbanReport.byPeriod": kanban.MaxReportPeriods,
	"KanbanReport.byAgent":  memberListBound,
	"KanbanReport.byStatus": len(kanban.CardStatuses),
	// A time report's stays and stages, cut by the operation.
	"KanbanItemTimeReport.stays":        kanban.MaxStaysListed,
	"KanbanItemTimeReport.timePerStage": kanban.MaxStaysListed,
	"KanbanItem.assignedAgents":         schema.MaxCardAgents,
}

// listBound is the most items the plain list field parent.field returns.
func listBound(parent, field string) int {
	if n, ok := listBounds[parent+"."+field]; ok {
		return n
	}
	isPayload := strings.HasSuffix(parent, "Payload")
	if isPayload && field == "userErrors" {
		return userErrorBound
	}
	// A mutation's other lists are in its payload: a bulk change's results,
	// or a member set.
	if parent == "Mutation" || isPayload {
		return mutationListBound
	}
	return defaultListBound
}

// isConnection reports whether t is a Relay connection (entgql's
// XConnection types): paged by first/last, its edges bounded by them.
func isConnection(schemaType *ast.Definition) bool {
	return schemaType != nil && strings.HasSuffix(schemaType.Name, "Connection") &&
		schemaType.Fields.ForName("edges") != nil && schemaType.Fields.ForName("pageInfo") != nil
}

// costWalk prices a validated operation. Fragments are priced once per
// page size they are spread under, and sums saturate just past the limit,
// so neither doubling fragments nor huge pages overflow or take long.
type costWalk struct {
	schema *ast.Schema
	limit  int
	vars   map[string]any
	memo   map[string]int
	err    *gqlerror.Error
	// readVars is set once a price depends on an argument (a page size, an
	// introspected type's name): only a price without one may be kept.
	readVars bool
	// metaVisits counts the introspection fields visited (cost_introspection.go).
	metaVisits int
}

// CheckCost refuses an operation whose cost passes MaxCost, or that pages
// a connection without first/last or beyond maxPage.
func (l Limits) CheckCost(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) *gqlerror.Error {
	err, _ := l.checkCost(schema, op, vars)
	return err
}

// checkCost is CheckCost, and whether its answer holds whatever the
// arguments (the operation reads no page size nor type name).
func (l Limits) checkCost(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) (*gqlerror.Error, bool) {
	if op == nil {
		return nil, false
	}
	w := &costWalk{schema: schema, limit: l.MaxCost, vars: vars, memo: map[string]int{}}
	c := w.set(op.SelectionSet, 0)
	if w.err != nil {
		return w.err, false
	}
	if c > l.MaxCost {
		return limitError(codeTooComplex, "the query may return about %d values (each list counts its largest page), over the limit of %d; ask for smaller pages or fewer nested lists", c, l.MaxCost), false
	}
	return nil, !w.readVars
}

func (w *costWalk) add(a, b int) int { return min(a+b, w.limit+1) }

func (w *costWalk) mul(a, b int) int {
	if a != 0 && b > (w.limit+1)/a {
		return w.limit + 1
	}
	return min(a*b, w.limit+1)
}

// set prices a selection set; page is the bound of its list fields when
// the set is a connection's (edges and nodes), else 0.
func (w *costWalk) set(set ast.SelectionSet, page int) int {
	c := 0
	for _, sel := range set {
		if w.err != nil {
			return 0
		}
		switch x := sel.(type) {
		case *ast.Field:
			c = w.add(c, w.field(x, page))
		case *ast.InlineFragment:
			c = w.add(c, w.set(x.SelectionSet, page))
		case *ast.FragmentSpread:
			c = w.add(c, w.fragment(x, page))
		}
	}
	return c
}

func (w *costWalk) fragment(x *ast.FragmentSpread, page int) int {
	if x.Definition == nil {
		return 0
	}
	key := fmt.Sprintf("%s/%d", x.Name, page)
	if c, ok := w.memo[key]; ok {
		return c
	}
	w.memo[key] = 0 // a cycle (refused by validation) costs nothing more
	c := w.set(x.Definition.SelectionSet, page)
	w.memo[key] = c
	return c
}

func (w *costWalk) field(f *ast.Field, page int) int {
	if introspective(f.Name) {
		return w.introspection(f)
	}
	def := f.Definition
	if def == nil {
		return 0
	}
	if def.Type.Elem == nil && isConnection(w.schema.Types[def.Type.Name()]) {
		w.readVars = true
		n, err := connectionPage(f, w.vars)
		if err != nil {
			w.err = err
			return 0
		}
		return w.add(1, w.set(f.SelectionSet, n))
	}
	if n, ok := offsetPage(f, w.vars); ok {
		w.readVars = true
		return w.add(1, w.set(f.SelectionSet, n))
	}
	child := w.set(f.SelectionSet, 0)
	if def.Type.Elem == nil {
		return w.add(1, child)
	}
	bound := page
	if bound == 0 {
		bound = listBound(parentName(f), f.Name)
	}
	return w.mul(bound, max(child, 1))
}

func parentName(f *ast.Field) string {
	if f.ObjectDefinition != nil {
		return f.ObjectDefinition.Name
	}
	return ""
}

// offsetPaged are the fields that answer a page of nodes sized by their
// perPage argument, with its default: the page's list is priced at the size
// asked for (within the list's own bound), as a connection's at first/last.
var offsetPaged = map[string]struct {
	defaultSize int
	nodes       string // the page type's list, "Type.field"
}{
	"Query.searchKanbanItems": {kanban.DefaultCardPage, "KanbanItemPage.nodes"},
}

// offsetPage is the size of the page an offset-paged field asks for.
func offsetPage(f *ast.Field, vars map[string]any) (int, bool) {
	p, ok := offsetPaged[parentName(f)+"."+f.Name]
	if !ok {
		return 0, false
	}
	n, given := intArg(f.ArgumentMap(vars)["perPage"])
	if !given || n <= 0 {
		n = p.defaultSize
	}
	typ, field, _ := strings.Cut(p.nodes, ".")
	return min(n, listBound(typ, field)), true
}

// connectionPage is the page a connection field asks for: first or last,
// required, between 0 and maxPage.
func connectionPage(f *ast.Field, vars map[string]any) (int, *gqlerror.Error) {
	args := f.ArgumentMap(vars)
	n, given := 0, false
	for _, name := range []string{"first", "last"} {
		v, ok := intArg(args[name])
		if !ok {
			continue
		}
		if v < 0 || v > maxPage {
			return 0, pageError(f, "%s: first and last must be between 0 and %d", f.Name, maxPage)
		}
		n, given = max(n, v), true
	}
	if !given {
		return 0, pageError(f, "%s needs first or last (at most %d): connections are paged", f.Name, maxPage)
	}
	return n, nil
}

func pageError(f *ast.Field, format string, args ...any) *gqlerror.Error {
	err := gqlerror.ErrorPosf(f.Position, format, args...)
	err.Extensions = map[string]any{"code": apperr.KindInvalid.GraphQLCode(), "attributes": []string{"first"}}
	return err
}

// intArg reads an Int argument as coerced from a literal or a variable.
func intArg(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case string:
		// gqlgen takes a variable's "5" for an Int: so does the estimate.
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return intArg(i)
		}
	case int32:
		return int(n), true
	case int64:
		if n > 1<<31 || n < -(1<<31) {
			return int(max(min(n, 1<<31), -(1 << 31))), true
		}
		return int(n), true
	case float64:
		return int(max(min(n, 1<<31), -(1 << 31))), true
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return intArg(i)
		}
		if f, err := n.Float64(); err == nil {
			return intArg(f)
		}
	}
	return 0, false
}

// InterceptField holds plain list fields to their bound: a longer result
// is cut, with a LIST_TRUNCATED error naming the field, so the cost
// estimate is never exceeded.
func (*textLimits) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Definition == nil || fc.Field.Definition.Type.Elem == nil {
		return next(ctx) // not a list: most fields
	}
	res, err := next(ctx)
	if err != nil || res == nil {
		return res, err
	}
	v := reflect.ValueOf(res)
	if v.Kind() != reflect.Slice {
		return res, nil
	}
	if isConnectionName(fc.Object) || introspective(fc.Object) {
		return res, nil // edges are bounded by first/last; the schema by itself
	}
	bound := listBound(fc.Object, fc.Field.Name)
	if v.Len() <= bound {
		return res, nil
	}
	paged, ok := pagedBy[fc.Object+"."+fc.Field.Name]
	if !ok {
		paged = "the paginated query"
	}
	graphql.AddError(ctx, &gqlerror.Error{
		Path:       fc.Path(),
		Message:    fmt.Sprintf("%s has more than %d items; only the first %d are returned (use %s)", fc.Field.Name, bound, bound, paged),
		Extensions: map[string]any{"code": codeTruncated},
	})
	return v.Slice(0, bound).Interface(), nil
}

// pagedBy names the query that pages through a plain list field's whole
// list, where one is not simply the account's list of that type.
var pagedBy = map[string]string{
	"KanbanItem.notes":          "cardNotes(where: {kanbanItemID})",
	"KanbanItem.checklistItems": "checklistItems(where: {kanbanItemID})",
}

func isConnectionName(object string) bool { return strings.HasSuffix(object, "Connection") }
