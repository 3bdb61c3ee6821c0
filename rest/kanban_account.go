package rest

import (
	"bytes"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// Account-scope kanban routes: search, filter, reports, bulk changes and
// CSV export and import.

// advancedFilter reads the index filters plus those of /filter and /search:
// query, priority[], status[], value_min, value_max, created_from,
// created_to (the forks' date_start/date_end too; a bare date is the whole
// day).
func advancedFilter(c *fiber.Ctx) (kanban.CardFilter, error) {
	f, err := cardFilter(c)
	if err != nil {
		return f, err
	}
	f.Query = strings.TrimSpace(c.Query("query", c.Query("q")))
	f.Priorities = append(queryList(c, "priority"), queryList(c, "priorities")...)
	f.Statuses = queryList(c, "status")
	for name, dst := range map[string]**float64{"value_min": &f.ValueMin, "value_max": &f.ValueMax} {
		if *dst, err = queryFloat(c, name); err != nil {
			return f, err
		}
	}
	if f.CreatedFrom, err = queryDay(c, "created_from", "date_start", false); err != nil {
		return f, err
	}
	if f.CreatedTo, err = queryDay(c, "created_to", "date_end", true); err != nil {
		return f, err
	}
	return f, nil
}

// queryDay reads a date or time parameter (or its alias). As an upper
// bound, a bare date means the end of that day.
func queryDay(c *fiber.Ctx, name, alias string, upper bool) (*time.Time, error) {
	raw := strings.TrimSpace(c.Query(name, c.Query(alias)))
	if raw == "" {
		return nil, nil
	}
	t, err := coerce.Day(raw)
	if err != nil {
		return nil, invalidField(name, apperr.Humanize(name)+" must be a date (YYYY-MM-DD) or an ISO 8601 time")
	}
	if upper && len(raw) == len("2006-01-02") {
		t = t.AddDate(0, 0, 1)
	}
	return &t, nil
}

// searchCards serves GET /kanban_items/search?query=&funnel_id=&agent_id=.
func (a *API) searchCards(c *fiber.Ctx) error {
	f, err := advancedFilter(c)
	if err != nil {
		return err
	}
	if f.Query == "" {
		return c.JSON(H{"meta": H{"count": 0, "query": ""}, "payload": []any{}})
	}
	p, err := a.svc.Cards(c.UserContext(), f)
	if err != nil {
		return err
	}
	meta := cardMeta(p)
	meta["query"] = f.Query
	return c.JSON(H{"meta": meta, "payload": cardsJSON(p.Items)})
}

// filterCards serves GET /kanban_items/filter.
func (a *API) filterCards(c *fiber.Ctx) error {
	f, err := advancedFilter(c)
	if err != nil {
		return err
	}
	p, err := a.svc.Cards(c.UserContext(), f)
	if err != nil {
		return err
	}
	return c.JSON(H{"meta": cardMeta(p), "payload": cardsJSON(p.Items)})
}

// cardReports serves GET /kanban_items/reports?from=&to=&user_ids[]=&inbox_id=&funnel_id=;
// the period defaults to the last 30 days.
func (a *API) cardReports(c *fiber.Ctx) error {
	in := kanban.ReportInput{}
	var err error
	for name, dst := range map[string]*int{"funnel_id": &in.FunnelID, "inbox_id": &in.InboxID} {
		if *dst, err = queryInt(c, name, 0); err != nil {
			return err
		}
	}
	for _, s := range queryList(c, "user_ids") {
		n, err := coerce.Int(s)
		if err != nil {
			return invalidField("user_ids", "user_ids must be integer ids")
		}
		in.UserIDs = append(in.UserIDs, n)
	}
	to, err := queryDay(c, "to", "", true)
	if err != nil {
		return err
	}
	from, err := queryDay(c, "from", "", false)
	if err != nil {
		return err
	}
	if to != nil {
		in.To = *to
	}
	if from != nil {
		in.From = *from
	}
	in.GroupBy = strings.TrimSpace(c.Query("group_by"))
	r, err := a.svc.KanbanReport(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.JSON(reportJSON(r))
}

func reportJSON(r *kanban.Report) H {
	byStatus := H{}
	for st, cv := range r.ByStatus {
		byStatus[st] = H{"count": cv.Count, "value": cv.Value}
	}
	stages := make([]H, 0, len(r.ByStage))
	for _, s := range r.ByStage {
		stages = append(stages, H{
			"funnel_id": s.FunnelID, "slug": s.Slug, "name": s.Name, "count": s.Count, "value": s.Value,
			"stays": s.Stays, "avg_time_seconds": s.AvgTimeSeconds, "reached": s.Reached,
		})
	}
	countValue := func(cv kanban.CountValue) H { return H{"count": cv.Count, "value": cv.Value} }
	periods := make([]H, 0, len(r.ByPeriod))
	for _, p := range r.ByPeriod {
		periods = append(periods, H{"start": wire.Time(p.Start), "created": countValue(p.Created), "won": countValue(p.Won), "lost": countValue(p.Lost)})
	}
	agents := make([]H, 0, len(r.ByAgent))
	for _, ag := range r.ByAgent {
		var id any // null: the cards without an agent
		if ag.UserID != 0 {
			id = ag.UserID
		}
		agents = append(agents, H{"user_id": id, "name": ag.Name, "cards": ag.Cards,
			"open": countValue(ag.Open), "won": countValue(ag.Won), "lost": countValue(ag.Lost)})
	}
	var winRate, avgWin any
	if r.WinRate != nil {
		winRate = *r.WinRate
	}
	if r.AvgTimeToWin != nil {
		avgWin = *r.AvgTimeToWin
	}
	return H{
		"period":      H{"from": wire.Time(r.From), "to": wire.Time(r.To)},
		"total_items": r.TotalItems, "total_value": r.TotalValue, "by_status": byStatus, "stages": stages,
		"win_rate": winRate, "avg_time_to_win_seconds": avgWin,
		"group_by": r.GroupBy, "by_period": periods, "by_agent": agents,
	}
}

// bulkRequest names the cards of a bulk change.
type bulkRequest struct {
	ItemIDs flexInts `json:"item_ids"`
}

type bulkMoveRequest struct {
	bulkRequest
	FunnelID *flexInt    `json:"funnel_id"`
	Stage    *flexString `json:"funnel_stage"`
	NewStage *flexString `json:"new_stage"` // the forks' name
}

// bulkAgentRequest adds an agent to the cards, or with mode "replace"
// makes it their only agent.
type bulkAgentRequest struct {
	bulkRequest
	AgentID flexInt    `json:"agent_id"`
	Mode    flexString `json:"mode"`
}

type bulkPriorityRequest struct {
	bulkRequest
	Priority flexString `json:"priority"`
}

func (a *API) bulkMove(c *fiber.Ctx) error {
	var req bulkMoveRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	ids := []int(req.ItemIDs)
	items, err := a.svc.BulkMove(c.UserContext(), ids, req.FunnelID.ptr(), deref(either(req.Stage, req.NewStage).ptr()))
	if err != nil {
		return err
	}
	return c.JSON(H{"success": true, "total_requested": len(ids), "moved_count": len(items), "payload": cardsJSON(items)})
}

func (a *API) bulkAssignAgent(c *fiber.Ctx) error {
	var req bulkAgentRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	if req.Mode != "" && req.Mode != "add" && req.Mode != "replace" {
		return invalidField("mode", "Mode must be add or replace")
	}
	ids := []int(req.ItemIDs)
	items, err := a.svc.BulkAssignAgent(c.UserContext(), ids, int(req.AgentID), req.Mode == "replace")
	if err != nil {
		return err
	}
	return c.JSON(H{"success": true, "total_requested": len(ids), "assigned_count": len(items), "payload": cardsJSON(items)})
}

func (a *API) bulkSetPriority(c *fiber.Ctx) error {
	var req bulkPriorityRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	ids := []int(req.ItemIDs)
	items, err := a.svc.BulkSetPriority(c.UserContext(), ids, string(req.Priority))
	if err != nil {
		return err
	}
	return c.JSON(H{"success": true, "total_requested": len(ids), "updated_count": len(items), "payload": cardsJSON(items)})
}

// exportCards serves GET /kanban_items/export: a CSV of every card matching
// the filters. It is built in memory first, so a refused filter is still a
// JSON error.
func (a *API) exportCards(c *fiber.Ctx) error {
	f, err := advancedFilter(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := a.svc.ExportCards(c.UserContext(), f, &buf); err != nil {
		return err
	}
	name := "kanban_items_" + time.Now().UTC().Format("20060102_150405") + ".csv"
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Send(buf.Bytes())
}

// uploadedCSV reads the multipart "file" part as CSV.
func uploadedCSV(c *fiber.Ctx) ([]string, [][]string, error) {
	if !strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		return nil, nil, apperr.BadRequest("Send the CSV as multipart/form-data in a part named file")
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return nil, nil, invalidField("file", "File can't be blank: send the CSV in a part named file")
	}
	f, err := fh.Open()
	if err != nil {
		return nil, nil, apperr.BadRequest("Unreadable file: %v", err)
	}
	defer f.Close()
	return kanban.ParseCSV(f)
}

// importPreview serves POST /kanban_items/import_preview: the columns and
// first rows of the file; nothing is written.
func (a *API) importPreview(c *fiber.Ctx) error {
	header, rows, err := uploadedCSV(c)
	if err != nil {
		return err
	}
	p := kanban.PreviewImport(header, rows)
	return c.JSON(H{"columns": p.Columns, "preview_rows": p.Rows, "total_rows": p.Total, "targets": p.Targets})
}

// importCards serves POST /kanban_items/import (multipart: file, funnel_id,
// default_stage, mappings as a JSON object of column → card field).
func (a *API) importCards(c *fiber.Ctx) error {
	header, rows, err := uploadedCSV(c)
	if err != nil {
		return err
	}
	var req importRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	in.Header, in.Rows = header, rows
	res, err := a.svc.ImportCards(c.UserContext(), in)
	if err != nil {
		return err
	}
	errs := make([]H, 0, len(res.Errors))
	for _, e := range res.Errors {
		errs = append(errs, H{"row": e.Row, "error": e.Error})
	}
	ids := make([]int, 0, len(res.Created))
	for _, it := range res.Created {
		ids = append(ids, it.ID)
	}
	return c.JSON(H{
		"success": len(res.Errors) == 0, "total_rows": res.Total, "created_count": len(res.Created),
		"error_count": len(res.Errors), "errors": errs, "created_ids": ids,
	})
}

// importRequest is how to read an imported file: funnel_id,
// default_stage (or default_stage_id) and mappings, a JSON object (or a
// string holding one) of column → card field.
type importRequest struct {
	FunnelID       *flexInt    `json:"funnel_id"`
	DefaultStage   *flexString `json:"default_stage"`
	DefaultStageID *flexString `json:"default_stage_id"`
	Mappings       *flexObject `json:"mappings"`
}

func (r *importRequest) input() (kanban.ImportInput, error) {
	if r.FunnelID == nil {
		return kanban.ImportInput{}, invalidField("funnel_id", "Funnel can't be blank")
	}
	mapping, err := coerce.StringMap(objectOrNil(r.Mappings), "mappings")
	in := kanban.ImportInput{FunnelID: int(*r.FunnelID), DefaultStage: deref(either(r.DefaultStage, r.DefaultStageID).ptr()), Mapping: mapping}
	return in, err
}
