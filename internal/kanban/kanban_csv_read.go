package kanban

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Reading an import file: its parsing within the import's limits, and the
// preview shown before an import.

// ImportPreview is what a CSV file would import: its columns, its first
// rows (PreviewRows at most) as column -> cell (JSON objects, as both APIs
// answer them), how many rows it has, and the card fields a column can be
// mapped to.
type ImportPreview struct {
	Columns []string
	Rows    []map[string]any
	Total   int
	Targets []string
}

// PreviewRows is how many rows a preview shows.
const PreviewRows = 5

// PreviewImport previews a parsed CSV (ParseCSV); a row shorter than the
// header has its missing cells empty.
func PreviewImport(header []string, rows [][]string) ImportPreview {
	shown := rows[:min(PreviewRows, len(rows))]
	out := ImportPreview{Columns: header, Rows: make([]map[string]any, 0, len(shown)), Total: len(rows), Targets: ImportTargets}
	for _, row := range shown {
		obj := make(map[string]any, len(header))
		for i, col := range header {
			obj[col] = ""
			if i < len(row) {
				obj[col] = row[i]
			}
		}
		out.Rows = append(out.Rows, obj)
	}
	return out
}

// ImportTargets are the card fields a CSV column can be mapped to.
var ImportTargets = []string{
	"title", "description", "priority", "value", "currency", "funnel_stage", "status",
	"assigned_agents", "conversation_display_id",
}

// maxImportRows bounds one import; larger files are split by the client.
const maxImportRows = 5000

// ParseCSV reads a CSV file: its header and its rows (blank rows skipped).
func ParseCSV(r io.Reader) (header []string, rows [][]string, err error) {
	in := csv.NewReader(&cappedReader{r: r, left: MaxImportBytes})
	in.FieldsPerRecord = -1
	in.TrimLeadingSpace = true
	header, err = in.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, apperr.Invalid("The CSV file is empty", "file")
	}
	if err != nil {
		return nil, nil, csvError(err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(strings.TrimPrefix(header[i], "\ufeff"))
	}
	for {
		rec, err := in.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, csvError(err)
		}
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		if len(rows) == maxImportRows {
			return nil, nil, apperr.Invalidf("file", "The file has more than %d rows", maxImportRows)
		}
		rows = append(rows, rec)
	}
	return header, rows, nil
}

// MaxImportBytes caps an import file: far above maxImportRows rows of card
// fields, and low enough that one field cannot fill the memory.
const MaxImportBytes = 10 << 20

var errImportTooLarge = errors.New("import file too large")

// cappedReader reads at most left bytes, then fails with errImportTooLarge.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the cap: fine if the file ends here.
		var b [1]byte
		if n, err := c.r.Read(b[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, errImportTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func csvError(err error) error {
	if errors.Is(err, errImportTooLarge) {
		return apperr.Invalidf("file", "The file is larger than %d bytes (10 MiB)", MaxImportBytes)
	}
	return apperr.Invalidf("file", "The file is not valid CSV: %v", err)
}
