package kanban

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/wire"
)

// CSV export and import of cards. Export writes every card matching the
// index filters (not one page); import creates each row through CreateCard,
// so a row obeys exactly the rules of the API and its errors read the same.

// exportColumns are the export's header, in English (the forks' are Portuguese).
var exportColumns = []string{
	"id", "title", "description", "status", "priority", "value", "currency", "funnel_id", "funnel", "funnel_stage",
	"position", "assigned_agents", "conversation_display_id", "contact_name", "contact_email", "created_at", "updated_at",
}

// ExportCards writes the cards matching f as CSV, in board order.
func (s *Service) ExportCards(ctx context.Context, f CardFilter, w io.Writer) error {
	out := csv.NewWriter(w)
	if err := out.Write(exportColumns); err != nil {
		return err
	}
	funnelNames, err := s.funnelNames(ctx)
	if err != nil {
		return err
	}
	f.PerPage = MaxCardPage
	for f.Page = 1; ; f.Page++ {
		p, err := s.Cards(ctx, f)
		if err != nil {
			return err
		}
		for _, it := range p.Items {
			if err := out.Write(exportRow(it, funnelNames)); err != nil {
				return err
			}
		}
		if !p.HasMore {
			break
		}
	}
	out.Flush()
	return out.Error()
}

func (s *Service) funnelNames(ctx context.Context) (map[int]string, error) {
	fs, err := s.Client(ctx).Funnel.Query().Select(funnel.FieldID, funnel.FieldName).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	out := map[int]string{}
	for _, f := range fs {
		out[f.ID] = f.Name
	}
	return out, nil
}

func exportRow(it *ent.KanbanItem, funnelNames map[int]string) []string {
	var agents []string
	for _, u := range it.Edges.AssignedAgents {
		agents = append(agents, u.Email)
	}
	stage, conv, name, email := "", "", "", ""
	if it.Edges.Stage != nil {
		stage = it.Edges.Stage.Slug
	}
	if cv := it.Edges.Conversation; cv != nil {
		conv = strconv.Itoa(cv.DisplayID)
		if ct := cv.Edges.Contact; ct != nil {
			name, email = ct.Name, core.Deref(ct.Email)
		}
	}
	// Numbers and times are written by us and cannot be formulas; every
	// text a user typed is neutralised.
	t := textCell
	return []string{
		strconv.Itoa(it.ID), t(it.Title), t(it.Description), t(string(it.Status)), t(string(it.Priority)),
		strconv.FormatFloat(it.Value, 'f', -1, 64), t(it.Currency["code"]), strconv.Itoa(it.FunnelID), t(funnelNames[it.FunnelID]),
		t(stage), strconv.FormatInt(it.Position, 10), t(strings.Join(agents, "; ")), conv, t(name), t(email),
		wire.Time(it.CreatedAt), wire.Time(it.UpdatedAt),
	}
}

// textCell keeps a spreadsheet from reading a text as a formula (OWASP CSV
// injection): a text starting with =, +, -, @, tab or carriage return gets a
// leading single quote, which spreadsheets show as "this is text" and hide.
// A leading line feed is treated alike: CSV readers turn "\r\n" into "\n".
// A text that itself starts with a quote gets one more, so that import
// (plainCell) can take exactly one off and every text round-trips.
func textCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r\n'", rune(s[0])) {
		return "'" + s
	}
	return s
}

// plainCell undoes textCell on import: a quote followed by a character
// textCell protects is dropped. A hand-made file's "'=x" therefore imports as
// "=x", as a spreadsheet would show it.
func plainCell(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r\n'", rune(s[1])) {
		return s[1:]
	}
	return s
}

// ImportInput is a parsed CSV file and how to read it.
type ImportInput struct {
	FunnelID int
	// DefaultStage is the slug for rows without one (default: the first stage).
	DefaultStage string
	// Mapping maps CSV columns to ImportTargets; nil maps every column whose
	// name is a target to it.
	Mapping map[string]string
	Header  []string
	Rows    [][]string
}

// ImportResult says what an import did; Row numbers count the header as 1.
type ImportResult struct {
	Total   int
	Created []*ent.KanbanItem
	Errors  []ImportRowError
}

// ImportRowError is why one row was not imported.
type ImportRowError struct {
	Row   int
	Error string
}

// ImportCards creates a card from each row; a refused row is reported and
// the others still import.
func (s *Service) ImportCards(ctx context.Context, in ImportInput) (*ImportResult, error) {
	columns, err := importColumns(in)
	if err != nil {
		return nil, err
	}
	if _, err := s.Funnel(ctx, in.FunnelID); err != nil {
		return nil, apperr.Invalidf("funnel_id", "Funnel %d does not exist in this account", in.FunnelID)
	}
	agents, err := s.agentRefs(ctx)
	if err != nil {
		return nil, err
	}
	out := &ImportResult{Total: len(in.Rows)}
	for i, row := range in.Rows {
		it, err := s.importRow(ctx, in, columns, row, agents)
		if err != nil {
			out.Errors = append(out.Errors, ImportRowError{Row: i + 2, Error: apperr.From(err).Message})
			continue
		}
		out.Created = append(out.Created, it)
	}
	return out, nil
}

// importColumns resolves the mapping to target → column index.
func importColumns(in ImportInput) (map[string]int, error) {
	index := map[string]int{}
	for i, h := range in.Header {
		index[strings.ToLower(h)] = i
	}
	mapping := in.Mapping
	if mapping == nil {
		mapping = map[string]string{}
		for _, h := range in.Header {
			if core.ContainsString(ImportTargets, strings.ToLower(h)) {
				mapping[h] = strings.ToLower(h)
			}
		}
	}
	out := map[string]int{}
	for col, target := range mapping {
		if target == "" || target == "ignore" {
			continue
		}
		if !core.ContainsString(ImportTargets, target) {
			return nil, apperr.Invalidf("mappings", "Mappings: %q is not a card field; use one of %s", target, strings.Join(ImportTargets, ", "))
		}
		i, ok := index[strings.ToLower(strings.TrimSpace(col))]
		if !ok {
			return nil, apperr.Invalidf("mappings", "Mappings: the file has no column %q", col)
		}
		out[target] = i
	}
	if _, ok := out["title"]; !ok {
		return nil, apperr.Invalid("Mappings: map a column to title", "mappings")
	}
	return out, nil
}

// agentRefs maps the account's agents' e-mails and ids (as text) to ids.
func (s *Service) agentRefs(ctx context.Context) (map[string]int, error) {
	ms, err := s.Client(ctx).AccountUser.Query().WithUser().Order(ent.Asc(accountuser.FieldUserID)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	out := map[string]int{}
	for _, m := range ms {
		out[strconv.Itoa(m.UserID)] = m.UserID
		if m.Edges.User != nil {
			out[strings.ToLower(m.Edges.User.Email)] = m.UserID
		}
	}
	return out, nil
}

func (s *Service) importRow(ctx context.Context, in ImportInput, columns map[string]int, row []string, agents map[string]int) (*ent.KanbanItem, error) {
	cell := func(target string) (string, bool) {
		i, ok := columns[target]
		if !ok || i >= len(row) {
			return "", false
		}
		v := strings.TrimSpace(plainCell(strings.TrimSpace(row[i])))
		return v, v != ""
	}
	card := CardInput{FunnelID: &in.FunnelID}
	title, _ := cell("title")
	card.Title = &title
	if v, ok := cell("description"); ok {
		card.Description = &v
	}
	if v, ok := cell("priority"); ok {
		v = strings.ToLower(v)
		card.Priority = &v
	}
	if v, ok := cell("value"); ok {
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
		if err != nil {
			return nil, apperr.Invalidf("item_details.value", "value %q is not a number", v)
		}
		card.Value = &f
	}
	if v, ok := cell("currency"); ok {
		card.Currency = map[string]string{"code": v}
	}
	stage, ok := cell("funnel_stage")
	if !ok {
		stage = in.DefaultStage
	}
	if stage != "" {
		card.Stage = &stage
	}
	if v, ok := cell("conversation_display_id"); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, apperr.Invalidf("conversation_display_id", "conversation_display_id %q is not an integer", v)
		}
		card.ConversationDisplayID = &n
	}
	if v, ok := cell("assigned_agents"); ok {
		ids, err := agentIDs(v, agents)
		if err != nil {
			return nil, err
		}
		card.AssignedAgents = &ids
	}
	status, _ := cell("status")
	status = strings.ToLower(status)
	if status != "" && !core.ContainsString(CardStatuses, status) {
		return nil, apperr.Invalidf("status", "status %q is not one of %s", status, strings.Join(CardStatuses, ", "))
	}
	it, err := s.CreateCard(ctx, card)
	if err != nil || status == "" || status == "open" {
		return it, err
	}
	return s.ChangeCardStatus(ctx, it.ID, status)
}

// agentIDs reads agents named by e-mail or id, separated by ';' or ','.
func agentIDs(cell string, agents map[string]int) ([]int, error) {
	var ids []int
	for _, ref := range strings.FieldsFunc(cell, func(r rune) bool { return r == ';' || r == ',' }) {
		ref = strings.ToLower(strings.TrimSpace(ref))
		if ref == "" {
			continue
		}
		id, ok := agents[ref]
		if !ok {
			return nil, apperr.Invalidf("assigned_agents", "assigned agent %q is not an agent of this account", ref)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
