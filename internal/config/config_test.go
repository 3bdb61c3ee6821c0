package config

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/jobs"
)

// env is a fake environment.
type env map[string]string

func (e env) get(name string) string { return e[name] }

func defaults() Config {
	return Config{
		Port: 3000, DatabaseURL: "sqlite://switchboard.db", DatabaseWait: 30 * time.Second,
		StorageDir: "./storage", MaxAttachmentBytes: 40 << 20, PublicURL: "http://localhost:3000",
		WhatsAppAPIBase: "https://graph.facebook.com/v20.0", CatchUp: 10 * time.Minute,
		LogLevel: slog.LevelInfo, ShutdownTimeout: 10 * time.Second,
		Retries: jobs.Retries{
			Messages:    jobs.Backoff{First: 5 * time.Second, Max: 6 * time.Hour, Budget: 72 * time.Hour},
			Webhooks:    jobs.Backoff{First: 10 * time.Second, Max: 6 * time.Hour, Budget: 72 * time.Hour},
			Automations: jobs.Backoff{First: 5 * time.Second, Max: 10 * time.Minute, Budget: time.Hour},
		},
		AttemptRetention:  7 * 24 * time.Hour,
		DeliveryRetention: 30 * 24 * time.Hour,
		IMAPPollInterval:  time.Minute,
	}
}

func TestLoadGoodValues(t *testing.T) {
	tests := []struct {
		name   string
		env    env
		args   []string
		change func(c *Config)
		rest   []string
	}{
		{"nothing set: the defaults", nil, nil, func(*Config) {}, nil},
		{"empty values count as unset", env{"PORT": "", "LOG_LEVEL": ""}, nil, func(*Config) {}, nil},
		{"every variable", env{
			"PORT": "8080", "DATABASE_URL": "postgres://sb:pw@db/sb?sslmode=disable", "DATABASE_WAIT": "0",
			"AUTO_MIGRATE": "1", "STORAGE_DIR": "/var/lib/sb", "MAX_ATTACHMENT_BYTES": "1024",
			"PUBLIC_URL": "https://sb.example.com", "WHATSAPP_API_BASE": "http://127.0.0.1:9000/v1",
			"SCHEDULE_CATCH_UP_WINDOW": "1h30m", "SWITCHBOARD_ALLOW_PRIVATE_NETWORKS": "true",
			"LOG_LEVEL": "WARN", "SHUTDOWN_TIMEOUT": "2s", "MESSAGE_RETRY_BUDGET": "90m", "WEBHOOK_RETRY_BUDGET": "0",
			"AUTOMATION_RETRY_BUDGET":    "15m",
			"DELIVERY_ATTEMPT_RETENTION": "48h", "WEBHOOK_DELIVERY_RETENTION": "240h",
			"IMAP_POLL_INTERVAL": "30s",
		}, nil, func(c *Config) {
			retries := c.Retries
			retries.Messages.Budget, retries.Webhooks.Budget, retries.Automations.Budget = 90*time.Minute, 0, 15*time.Minute
			*c = Config{Port: 8080, DatabaseURL: "postgres://sb:pw@db/sb?sslmode=disable", DatabaseWait: 0,
				AutoMigrate: true, StorageDir: "/var/lib/sb", MaxAttachmentBytes: 1024,
				PublicURL: "https://sb.example.com", WhatsAppAPIBase: "http://127.0.0.1:9000/v1",
				CatchUp: 90 * time.Minute, AllowPrivateNetworks: true, LogLevel: slog.LevelWarn,
				ShutdownTimeout: 2 * time.Second, Retries: retries, AttemptRetention: 48 * time.Hour, DeliveryRetention: 240 * time.Hour,
				IMAPPollInterval: 30 * time.Second}
		}, nil},
		{"base URLs lose their trailing slashes", env{"PUBLIC_URL": "https://sb.example.com/", "WHATSAPP_API_BASE": "http://127.0.0.1:9000/v1//"}, nil,
			func(c *Config) { c.PublicURL, c.WhatsAppAPIBase = "https://sb.example.com", "http://127.0.0.1:9000/v1" }, nil},
		{"PUBLIC_URL follows PORT", env{"PORT": "4000"}, nil,
			func(c *Config) { c.Port, c.PublicURL = 4000, "http://localhost:4000" }, nil},
		{"a flag wins over the variable", env{"PORT": "4000", "LOG_LEVEL": "debug"}, []string{"--port", "5000"},
			func(c *Config) { c.Port, c.PublicURL, c.LogLevel = 5000, "http://localhost:5000", slog.LevelDebug }, nil},
		{"a boolean flag alone means true", nil, []string{"--auto-migrate", "-allow-private-networks"},
			func(c *Config) { c.AutoMigrate, c.AllowPrivateNetworks = true, true }, nil},
		{"a boolean flag set to false wins", env{"AUTO_MIGRATE": "1"}, []string{"--auto-migrate=false"},
			func(*Config) {}, nil},
		{"the command after the flags is returned", nil, []string{"--log-level=error", "migrate", "up", "--x"},
			func(c *Config) { c.LogLevel = slog.LevelError }, []string{"migrate", "up", "--x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest, err := Load(tt.args, tt.env.get)
			if err != nil {
				t.Fatal(err)
			}
			want := defaults()
			tt.change(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if len(rest) != len(tt.rest) || (len(rest) > 0 && !reflect.DeepEqual(rest, tt.rest)) {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestLoadRejectsMalformedValues(t *testing.T) {
	tests := []struct {
		name, value string
	}{
		{"PORT", "abc"}, {"PORT", "0"}, {"PORT", "70000"}, {"PORT", "-1"},
		{"DATABASE_URL", "mysql://db/sb"}, {"DATABASE_URL", "sqlite://"},
		{"DATABASE_WAIT", "soon"}, {"DATABASE_WAIT", "-1s"},
		{"AUTO_MIGRATE", "yes please"},
		{"MAX_ATTACHMENT_BYTES", "-5"}, {"MAX_ATTACHMENT_BYTES", "0"}, {"MAX_ATTACHMENT_BYTES", "40MB"},
		{"PUBLIC_URL", "localhost:3000"}, {"PUBLIC_URL", "ftp://sb.example.com"}, {"PUBLIC_URL", "https://"},
		{"WHATSAPP_API_BASE", "graph.facebook.com"},
		{"SCHEDULE_CATCH_UP_WINDOW", "banana"}, {"SCHEDULE_CATCH_UP_WINDOW", "0"}, {"SCHEDULE_CATCH_UP_WINDOW", "10"},
		{"SWITCHBOARD_ALLOW_PRIVATE_NETWORKS", "maybe"},
		{"LOG_LEVEL", "loud"}, {"LOG_LEVEL", "3"},
		{"SHUTDOWN_TIMEOUT", "0s"}, {"SHUTDOWN_TIMEOUT", "forever"},
		{"MESSAGE_RETRY_BUDGET", "3 days"}, {"MESSAGE_RETRY_BUDGET", "-1h"},
		{"WEBHOOK_RETRY_BUDGET", "72"}, {"WEBHOOK_RETRY_BUDGET", "-1s"},
		{"AUTOMATION_RETRY_BUDGET", "1 hour"}, {"AUTOMATION_RETRY_BUDGET", "-5m"},
		{"DELIVERY_ATTEMPT_RETENTION", "0"}, {"DELIVERY_ATTEMPT_RETENTION", "a week"},
		{"WEBHOOK_DELIVERY_RETENTION", "0"}, {"WEBHOOK_DELIVERY_RETENTION", "-720h"},
		{"IMAP_POLL_INTERVAL", "0"}, {"IMAP_POLL_INTERVAL", "often"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.name] = true
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			_, _, err := Load(nil, env{tt.name: tt.value}.get)
			if err == nil || !strings.HasPrefix(err.Error(), tt.name+` "`+tt.value+`": want`) {
				t.Errorf("error %v, want one starting %s %q: want ...", err, tt.name, tt.value)
			}
			flag := "--" + optionNamed(t, tt.name).flag
			_, _, err = Load([]string{flag + "=" + tt.value}, env{}.get)
			if err == nil || !strings.HasPrefix(err.Error(), flag+` "`+tt.value+`": want`) {
				t.Errorf("flag: error %v, want one starting %s %q: want ...", err, flag, tt.value)
			}
		})
	}
	for _, o := range options {
		if !seen[o.env] && o.env != "STORAGE_DIR" { // any directory name is one
			t.Errorf("no malformed value of %s is tested", o.env)
		}
	}
}

func optionNamed(t *testing.T, env string) option {
	t.Helper()
	for _, o := range options {
		if o.env == env {
			return o
		}
	}
	t.Fatalf("no option %s", env)
	return option{}
}

func TestLoadHidesTheDatabasePassword(t *testing.T) {
	for _, bad := range []string{"postgre://sb:s3cret@db/sb", "postgre://db/sb?password=s3cret",
		"host=127.0.0.1 password=s3cret", "host=127.0.0.1 password = 's3cret pw'"} {
		_, _, err := Load(nil, env{"DATABASE_URL": bad}.get)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "DATABASE_URL") {
			t.Errorf("%s: error %v: want DATABASE_URL named and the password hidden", bad, err)
		}
	}
	_, _, err := Load(nil, env{"DATABASE_URL": "postgre://sb:s3cret@db/sb"}.get)
	_, _, err = Load([]string{"--database-url", "postgre://sb:s3cret@db/sb"}, env{}.get)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("flag: error %v: want the password hidden", err)
	}
}

func TestLoadRejectsUnknownFlags(t *testing.T) {
	if _, _, err := Load([]string{"--prot", "80"}, env{}.get); err == nil || !strings.Contains(err.Error(), "prot") {
		t.Errorf("error %v, want the unknown flag named", err)
	}
}

func TestHelpListsEveryOption(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		if _, _, err := Load([]string{arg}, env{}.get); !errors.Is(err, ErrHelp) {
			t.Errorf("%s: error %v, want ErrHelp", arg, err)
		}
	}
	var out bytes.Buffer
	if err := Usage(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(options)+1 {
		t.Fatalf("--help printed %d lines, want a header and one per option (%d):\n%s", len(lines), len(options), out.String())
	}
	for i, o := range options {
		fields := strings.Fields(lines[i+1])
		if len(fields) < 4 || fields[0] != o.env || fields[1] != "--"+o.flag || fields[2] != o.shownDefault() ||
			!strings.HasSuffix(lines[i+1], o.help) {
			t.Errorf("--help line %q, want %s, --%s, %s and the meaning", lines[i+1], o.env, o.flag, o.shownDefault())
		}
	}
}

func TestOptionsAreComplete(t *testing.T) {
	envs, flags := map[string]bool{}, map[string]bool{}
	for _, o := range options {
		if o.env == "" || o.flag == "" || o.help == "" || o.shownDefault() == "" || o.set == nil {
			t.Errorf("option %+v lacks a name, flag, default, meaning or parser", o)
		}
		if envs[o.env] || flags[o.flag] {
			t.Errorf("option %s or flag --%s appears twice", o.env, o.flag)
		}
		envs[o.env], flags[o.flag] = true, true
	}
}

// TestREADMEListsEveryOption keeps README.md's Configuration table and the
// options table the same: the same variables, in the same order, with the
// same defaults.
func TestREADMEListsEveryOption(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(b)
	start := strings.Index(section, "## Configuration\n")
	if start < 0 {
		t.Fatal("README.md has no ## Configuration section")
	}
	section = section[start+len("## Configuration\n"):]
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	var rows [][]string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			cells := strings.Split(line, "|")
			rows = append(rows, []string{strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])})
		}
	}
	if len(rows) != len(options) {
		t.Errorf("README's Configuration table has %d variables, the options table %d", len(rows), len(options))
	}
	for i, o := range options {
		if i >= len(rows) {
			t.Errorf("README lacks %s", o.env)
			continue
		}
		if rows[i][0] != "`"+o.env+"`" || !strings.HasPrefix(rows[i][1], "`"+o.shownDefault()+"`") {
			t.Errorf("README row %d is %s with default %s, want `%s` with default `%s`", i+1, rows[i][0], rows[i][1], o.env, o.shownDefault())
		}
	}
}
