package rest

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

// Account-scope kanban routes: search, filter, reports, bulk changes and
// CSV export and import.

// advancedFilter reads the index filters plus those of /filter and /search:
// query, priority[], status[], value_min, value_max, created_from,
// created_to (the forks' date_start/date_end too; a bare date is the whole
// day).
func advancedFilter(c *fiber.Ctx) (ops.CardFilter, error) {
	f, err := cardFilter(c)
	if err != nil {
		return f, err
	}
	f.Query = strings.TrimSpace(c.Query("query", c.Query("q")))
	f.Priorities = append(queryList(c, "priority"), queryList(c, "priorities")...)
	f.Statuses = queryList(c, "status")
	for name, dst := range map[string]**float64{"value_min": &f.ValueMin, "value_max": &f.ValueMax} {
		if v := strings.TrimSpace(c.Query(name)); v != "" {
			if *dst, err = optFloat(map[string]any{name: v}, name, name); err != nil {
				return f, err
			}
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
	t, err := parseDay(name, raw)
	if err != nil {
		return nil, err
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
	in := ops.ReportInput{}
	var err error
	for name, dst := range map[string]*int{"funnel_id": &in.FunnelID, "inbox_id": &in.InboxID} {
		if *dst, err = queryInt(c, name, 0); err != nil {
			return err
		}
	}
	for _, s := range queryList(c, "user_ids") {
		n, ok := toInt(s)
		if !ok {
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
	in.To = time.Now().UTC()
	if to != nil {
		in.To = *to
	}
	in.From = in.To.AddDate(0, 0, -30)
	if from != nil {
		in.From = *from
	}
	if !in.From.Before(in.To) {
		return invalidField("from", "from must be before to")
	}
	r, err := a.svc.KanbanReport(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.JSON(reportJSON(r))
}

func reportJSON(r *ops.Report) H {
	byStatus := H{}
	for st, cv := range r.ByStatus {
		byStatus[st] = H{"count": cv.Count, "value": cv.Value}
	}
	stages := make([]H, 0, len(r.ByStage))
	for _, s := range r.ByStage {
		stages = append(stages, H{
			"funnel_id": s.FunnelID, "slug": s.Slug, "name": s.Name, "count": s.Count, "value": s.Value,
			"stays": s.Stays, "avg_time_seconds": s.AvgTimeSeconds,
		})
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
	}
}

// bulkBody reads item_ids and the rest of a bulk request.
func bulkBody(c *fiber.Ctx) ([]int, map[string]any, error) {
	m, err := bodyMap(c)
	if err != nil {
		return nil, nil, err
	}
	ids, err := optInts(m, "item_ids", "item_ids")
	if err != nil {
		return nil, nil, err
	}
	return deref(ids), m, nil
}

func (a *API) bulkMove(c *fiber.Ctx) error {
	ids, m, err := bulkBody(c)
	if err != nil {
		return err
	}
	funnelID, err := optInt(m, "funnel_id", "funnel_id")
	if err != nil {
		return err
	}
	stage, err := optString(m, "funnel_stage", "funnel_stage")
	if err == nil && stage == nil {
		stage, err = optString(m, "new_stage", "funnel_stage") // the forks' name
	}
	if err != nil {
		return err
	}
	items, err := a.svc.BulkMove(c.UserContext(), ids, funnelID, deref(stage))
	if err != nil {
		return err
	}
	return c.JSON(H{"success": true, "total_requested": len(ids), "moved_count": len(items), "payload": cardsJSON(items)})
}

func (a *API) bulkAssignAgent(c *fiber.Ctx) error {
	ids, m, err := bulkBody(c)
	if err != nil {
		return err
	}
	agentID, err := optInt(m, "agent_id", "agent_id")
	if err != nil {
		return err
	}
	mode, err := optString(m, "mode", "mode")
	if err != nil {
		return err
	}
	if mode != nil && *mode != "add" && *mode != "replace" {
		return invalidField("mode", "Mode must be add or replace")
	}
	items, err := a.svc.BulkAssignAgent(c.UserContext(), ids, deref(agentID), deref(mode) == "replace")
	if err != nil {
		return err
	}
	return c.JSON(H{"success": true, "total_requested": len(ids), "assigned_count": len(items), "payload": cardsJSON(items)})
}

func (a *API) bulkSetPriority(c *fiber.Ctx) error {
	ids, m, err := bulkBody(c)
	if err != nil {
		return err
	}
	priority, err := optString(m, "priority", "priority")
	if err != nil {
		return err
	}
	items, err := a.svc.BulkSetPriority(c.UserContext(), ids, deref(priority))
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
	return ops.ParseCSV(f)
}

// importPreview serves POST /kanban_items/import_preview: the columns and
// first rows of the file; nothing is written.
func (a *API) importPreview(c *fiber.Ctx) error {
	header, rows, err := uploadedCSV(c)
	if err != nil {
		return err
	}
	preview := make([]H, 0, 5)
	for _, row := range rows[:min(5, len(rows))] {
		obj := H{}
		for i, col := range header {
			if i < len(row) {
				obj[col] = row[i]
			} else {
				obj[col] = ""
			}
		}
		preview = append(preview, obj)
	}
	return c.JSON(H{"columns": header, "preview_rows": preview, "total_rows": len(rows), "targets": ops.ImportTargets})
}

// importCards serves POST /kanban_items/import (multipart: file, funnel_id,
// default_stage, mappings as a JSON object of column → card field).
func (a *API) importCards(c *fiber.Ctx) error {
	header, rows, err := uploadedCSV(c)
	if err != nil {
		return err
	}
	m, err := bodyMap(c)
	if err != nil {
		return err
	}
	in := ops.ImportInput{Header: header, Rows: rows}
	funnelID, err := optInt(m, "funnel_id", "funnel_id")
	if err != nil {
		return err
	}
	if funnelID == nil {
		return invalidField("funnel_id", "Funnel can't be blank")
	}
	in.FunnelID = *funnelID
	stage, err := optString(m, "default_stage", "default_stage")
	if err == nil && stage == nil {
		stage, err = optString(m, "default_stage_id", "default_stage")
	}
	if err != nil {
		return err
	}
	in.DefaultStage = deref(stage)
	if in.Mapping, err = importMapping(m["mappings"]); err != nil {
		return err
	}
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

// importMapping reads mappings as an object or a JSON string of one.
func importMapping(v any) (map[string]string, error) {
	if s, ok := v.(string); ok {
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(s), &obj); err != nil {
			return nil, invalidField("mappings", "Mappings must be a JSON object of column → card field")
		}
		v = obj
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		out := map[string]string{}
		for col, target := range x {
			s, ok := target.(string)
			if !ok && target != nil {
				return nil, invalidField("mappings", "Mappings must map column names to card field names")
			}
			out[col] = s
		}
		return out, nil
	}
	return nil, invalidField("mappings", "Mappings must be a JSON object of column → card field")
}
