package observe

import (
	"database/sql"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	_ "modernc.org/sqlite"
)

func TestReadinessNamesWhatIsNotReady(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name    string
		lastRan time.Time
		closeDB bool
		status  int
		body    string
	}{
		{"all well", now, false, 200, `{"status":"ready","checks":{"database":"ok","jobs":"ok"}}`},
		{"job runner stalled", now.Add(-2 * time.Minute), false, 503,
			`{"status":"not ready","checks":{"database":"ok","jobs":"stalled: the job runner last reported at ` +
				now.Add(-2*time.Minute).UTC().Format(time.RFC3339) + `"}}`},
		{"database gone", now, true, 503, `{"status":"not ready","checks":{"database":"unreachable","jobs":"ok"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "h.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if tt.closeDB {
				d.Close()
			}
			app := fiber.New()
			(&Health{DB: d, JobsLastRan: func() time.Time { return tt.lastRan },
				Log: slog.New(slog.NewTextHandler(io.Discard, nil))}).Mount(app)
			res, err := app.Test(httptest.NewRequest("GET", "/readyz", nil), -1)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.status || string(body) != tt.body {
				t.Errorf("GET /readyz = %d %s, want %d %s", res.StatusCode, body, tt.status, tt.body)
			}
		})
	}
}

func TestSaneRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"abc-123_X.y:z": true, "": false, "a b": false, "a\nb": false, `a"b`: false,
		"ünïcode": false, string(make([]byte, 129)): false,
	} {
		if got := saneRequestID(id); got != want {
			t.Errorf("saneRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}
