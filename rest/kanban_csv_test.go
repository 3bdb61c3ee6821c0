package rest_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"sort"
	"testing"

	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/testdb"
)

// CSV export neutralises texts a spreadsheet would run as formulas (OWASP
// CSV injection: a leading single quote), and import takes the quote off
// again, so an exported file imports back to the same texts (issue 10).
func TestKanbanCSVExportNeutralisesFormulas(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		from := a.funnel("From", "new")
		to := a.funnel("To", "new")
		cards := []struct{ title, description, wantTitle string }{
			{`=HYPERLINK("https://evil.example.com","Click")`, "=1+1", `'=HYPERLINK("https://evil.example.com","Click")`},
			{"+33 1 23 45", "@SUM(A1:A9)", "'+33 1 23 45"},
			{"-2+3", "\tindented", "'-2+3"},
			{"@mention", "\r\nnew line first", "'@mention"},
			{"'quoted already", "plain", "''quoted already"},
			{"Plain title", "=cmd|' /C calc'!A0", "Plain title"},
		}
		for _, c := range cards {
			a.mustDo(request{method: "POST", path: a.path("/kanban_items"),
				body: H{"funnel_id": from, "item_details": H{"title": c.title, "description": c.description}}}, http.StatusOK)
		}
		r := a.mustDo(request{method: "GET", path: a.path("/kanban_items/export?funnel_id=%d", from)}, http.StatusOK)
		rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
		if err != nil || len(rows) != len(cards)+1 {
			t.Fatalf("export: %d rows (%v):\n%s", len(rows), err, r.Body)
		}
		titles := map[string]bool{}
		for _, row := range rows[1:] {
			titles[row[1]] = true
			for i, cell := range row {
				if cell != "" && bytes.ContainsRune([]byte("=+-@\t\r"), rune(cell[0])) && !isNumberColumn(rows[0][i]) {
					t.Errorf("column %s starts a formula: %q", rows[0][i], cell)
				}
			}
		}
		for _, c := range cards {
			if !titles[c.wantTitle] {
				t.Errorf("no exported title %q in %v", c.wantTitle, titles)
			}
		}

		// The exported file, imported as it is, gives back the same texts
		// (import trims surrounding blanks, as it always has).
		f := fields("funnel_id", itoa(to)).file("file", "export.csv", "text/csv", r.Body)
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/import"), body: f}, http.StatusOK)
		got, err := a.srv.DB.Client.KanbanItem.Query().Where(kanbanitem.FunnelID(to)).All(sys())
		if err != nil {
			t.Fatal(err)
		}
		var gotTexts, wantTexts []string
		for _, it := range got {
			gotTexts = append(gotTexts, it.Title+" | "+it.Description)
		}
		trimmed := map[string]string{"\tindented": "indented", "\r\nnew line first": "new line first"}
		for _, c := range cards {
			d := c.description
			if v, ok := trimmed[d]; ok {
				d = v
			}
			wantTexts = append(wantTexts, c.title+" | "+d)
		}
		sort.Strings(gotTexts)
		sort.Strings(wantTexts)
		if len(gotTexts) != len(wantTexts) {
			t.Fatalf("imported %q, want %q", gotTexts, wantTexts)
		}
		for i := range gotTexts {
			if gotTexts[i] != wantTexts[i] {
				t.Errorf("imported %q, want %q", gotTexts[i], wantTexts[i])
			}
		}
	})
}

func isNumberColumn(name string) bool {
	switch name {
	case "id", "value", "funnel_id", "position", "conversation_display_id", "created_at", "updated_at":
		return true
	}
	return false
}
