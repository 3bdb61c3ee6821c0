package kanban

import (
	"bytes"
	"testing"
)

// A fuzz target of the CSV import's parser. CI runs it briefly:
// go test -run '^$' -fuzz FuzzParseCSV -fuzztime 10s ./internal/kanban;
// seeds are in testdata/fuzz.

// FuzzParseCSV reads any bytes as an import file: a header and rows, or a
// 422 naming the file; never a panic, never more than maxImportRows rows.
func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{
		"title,funnel_stage,value\nA,new,10\nB,won,1e3\n",
		"\ufefftitle;stage\n\"quoted, comma\";x\n",
		"title\n\n\n  \nA\n", "", "\n", "\"unterminated\n", "a,b\n1,2,3,4\n\"x\"\"y\",z\n",
		"title,agents\r\nA,\"ann@x.test, bob@x.test\"\r\n", "=HYPERLINK(\"x\"),+1,-1,@a\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		header, rows, err := ParseCSV(bytes.NewReader(data))
		if err != nil {
			return
		}
		if header == nil || len(rows) > maxImportRows {
			t.Fatalf("header %v, %d rows", header, len(rows))
		}
		in := ImportInput{Header: header, Rows: rows}
		_, _ = importColumns(in)
		agents := map[string]int{"ann@x.test": 1, "2": 2}
		for _, row := range rows {
			for _, cell := range row {
				_, _ = agentIDs(cell, agents)
			}
		}
	})
}
