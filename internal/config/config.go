// Package config is the whole configuration of the binary: one table of
// options (environment variable, flag, default, parser, meaning), read and
// validated once at start. A malformed value stops the start with a message
// naming the variable and the value: a typo must never fall back to a default
// silently. Other packages read nothing from the environment; main hands them
// the parsed values.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/jobs"
	"github.com/switchboard/switchboard/internal/mailin"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/storage"
)

// Config is the parsed configuration.
type Config struct {
	Port         int
	DatabaseURL  string
	DatabaseWait time.Duration
	// AutoMigrate lets the server apply pending schema migrations itself.
	AutoMigrate        bool
	StorageDir         string
	MaxAttachmentBytes int64
	PublicURL          string
	WhatsAppAPIBase    string
	// CatchUp is how late a scheduled message may still fire after downtime.
	CatchUp              time.Duration
	AllowPrivateNetworks bool
	LogLevel             slog.Level
	ShutdownTimeout      time.Duration
	// Retries are the retry budgets of channel and webhook deliveries and
	// of kanban automation runs.
	Retries jobs.Retries
	// AttemptRetention is how long the delivery attempt log keeps an
	// attempt.
	AttemptRetention time.Duration
	// DeliveryRetention is how long a finished webhook delivery stays in
	// its subscription's log.
	DeliveryRetention time.Duration
	// IMAPPollInterval is how often e-mail inboxes' mailboxes are polled
	// (those whose server has no IDLE; a safety net for the others).
	IMAPPollInterval time.Duration
}

// DefaultShutdownTimeout is how long in-flight requests get at shutdown.
const DefaultShutdownTimeout = 10 * time.Second

// ErrHelp is returned by Load for -h, -help or --help.
var ErrHelp = flag.ErrHelp

// option is one line of the table. set parses a raw value into the Config;
// the default goes through the same parser, so a default is always valid.
type option struct {
	env, flag string
	def       string
	// show is the default as --help and the README print it, when it is
	// not def itself (a derived default).
	show    string
	help    string
	boolean bool // a flag without a value means true
	// redact hides a password in the value when an error quotes it.
	redact bool
	set    func(c *Config, v string) error
}

func (o option) shownDefault() string {
	if o.show != "" {
		return o.show
	}
	return o.def
}

// quoted is v as an error may show it.
func (o option) quoted(v string) string {
	if !o.redact {
		return v
	}
	return db.Redacted(v)
}

// options is the table. Keep README.md's Configuration table in step:
// TestREADMEListsEveryOption compares them.
var options = []option{
	{env: "PORT", flag: "port", def: "3000", help: "HTTP port for REST, GraphQL and the console",
		set: func(c *Config, v string) (err error) { c.Port, err = parsePort(v); return }},
	{env: "DATABASE_URL", flag: "database-url", def: db.DefaultURL, redact: true,
		help: "sqlite://path.db (embedded) or postgres://user:pass@host/db?sslmode=...",
		set:  func(c *Config, v string) error { c.DatabaseURL = v; return db.CheckURL(v) }},
	{env: "DATABASE_WAIT", flag: "database-wait", def: "30s",
		help: "how long the start waits for an unreachable database (a Go duration; 0: not at all)",
		set:  duration(func(c *Config) *time.Duration { return &c.DatabaseWait }, true)},
	{env: "AUTO_MIGRATE", flag: "auto-migrate", def: "0", boolean: true,
		help: "1: apply pending schema migrations at start (otherwise a behind database stops the start)",
		set:  boolean(func(c *Config) *bool { return &c.AutoMigrate })},
	{env: "STORAGE_DIR", flag: "storage-dir", def: "./storage", help: "where uploaded files go",
		set: func(c *Config, v string) error { c.StorageDir = v; return nil }},
	{env: "MAX_ATTACHMENT_BYTES", flag: "max-attachment-bytes", def: strconv.Itoa(storage.DefaultMaxFileSize),
		help: "per-file limit of message attachments, in bytes",
		set:  func(c *Config, v string) (err error) { c.MaxAttachmentBytes, err = parsePositiveInt(v); return }},
	{env: "PUBLIC_URL", flag: "public-url", show: "http://localhost:$PORT",
		help: "base URL the console is reached at (https makes its cookie Secure)",
		set:  func(c *Config, v string) (err error) { c.PublicURL, err = baseURL(v); return }},
	{env: "WHATSAPP_API_BASE", flag: "whatsapp-api-base", def: delivery.DefaultWhatsAppBase,
		help: "WhatsApp Cloud API base URL (a proxy or a local stand-in)",
		set:  func(c *Config, v string) (err error) { c.WhatsAppAPIBase, err = baseURL(v); return }},
	{env: "SCHEDULE_CATCH_UP_WINDOW", flag: "schedule-catch-up-window", def: shortDuration(schedules.DefaultCatchUpWindow),
		help: "how late a scheduled message may still fire after downtime (a Go duration)",
		set:  duration(func(c *Config) *time.Duration { return &c.CatchUp }, false)},
	{env: "SWITCHBOARD_ALLOW_PRIVATE_NETWORKS", flag: "allow-private-networks", def: "0", boolean: true,
		help: "1: outbound webhooks, channel APIs, SMTP and IMAP may reach private and loopback addresses",
		set:  boolean(func(c *Config) *bool { return &c.AllowPrivateNetworks })},
	{env: "LOG_LEVEL", flag: "log-level", def: "info", help: "debug, info, warn or error (JSON lines on standard error)",
		set: func(c *Config, v string) (err error) { c.LogLevel, err = parseLogLevel(v); return }},
	{env: "SHUTDOWN_TIMEOUT", flag: "shutdown-timeout", def: shortDuration(DefaultShutdownTimeout),
		help: "how long requests in flight get to finish at SIGTERM (a Go duration)",
		set:  duration(func(c *Config) *time.Duration { return &c.ShutdownTimeout }, false)},
	{env: "MESSAGE_RETRY_BUDGET", flag: "message-retry-budget", def: shortDuration(jobs.DefaultRetries.Messages.Budget),
		help: "how long a message's channel delivery is retried before it fails (a Go duration; 0: no retries)",
		set:  duration(func(c *Config) *time.Duration { return &c.Retries.Messages.Budget }, true)},
	{env: "WEBHOOK_RETRY_BUDGET", flag: "webhook-retry-budget", def: shortDuration(jobs.DefaultRetries.Webhooks.Budget),
		help: "how long a webhook delivery is retried before it fails (a Go duration; 0: no retries)",
		set:  duration(func(c *Config) *time.Duration { return &c.Retries.Webhooks.Budget }, true)},
	{env: "AUTOMATION_RETRY_BUDGET", flag: "automation-retry-budget", def: shortDuration(jobs.DefaultRetries.Automations.Budget),
		help: "how long a kanban automation run that fails on the database is retried before it is dropped (a Go duration; 0: no retries)",
		set:  duration(func(c *Config) *time.Duration { return &c.Retries.Automations.Budget }, true)},
	{env: "DELIVERY_ATTEMPT_RETENTION", flag: "delivery-attempt-retention", def: shortDuration(jobs.DefaultAttemptRetention),
		help: "how long the log of delivery attempts (messages and webhooks) keeps each attempt (a Go duration)",
		set:  duration(func(c *Config) *time.Duration { return &c.AttemptRetention }, false)},
	{env: "WEBHOOK_DELIVERY_RETENTION", flag: "webhook-delivery-retention", def: shortDuration(jobs.DefaultDeliveryRetention),
		help: "how long a delivered or failed webhook delivery, with its payload, stays in its subscription's log after it last changed (a Go duration)",
		set:  duration(func(c *Config) *time.Duration { return &c.DeliveryRetention }, false)},
	{env: "IMAP_POLL_INTERVAL", flag: "imap-poll-interval", def: shortDuration(mailin.DefaultPollInterval),
		help: "how often e-mail inboxes' IMAP mailboxes are checked for new mail where the server has no IDLE (a Go duration)",
		set:  duration(func(c *Config) *time.Duration { return &c.IMAPPollInterval }, false)},
}

// Load reads the configuration from the environment (getenv; an empty value
// counts as unset) and then from flags in args, which win. It returns the
// arguments after the flags (a command and its own arguments), or ErrHelp.
func Load(args []string, getenv func(string) string) (Config, []string, error) {
	// The retry waits' shape is fixed; the options set the budgets.
	c := Config{Retries: jobs.DefaultRetries}
	for _, o := range options {
		if o.def != "" {
			if err := o.set(&c, o.def); err != nil {
				panic(fmt.Sprintf("config: default of %s: %v", o.env, err))
			}
		}
	}
	for _, o := range options {
		if v := getenv(o.env); v != "" {
			if err := o.set(&c, v); err != nil {
				return Config{}, nil, fmt.Errorf("%s %q: %w", o.env, o.quoted(v), err)
			}
		}
	}
	fs := flag.NewFlagSet("switchboard", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var invalid error // flag wraps Set's error as text; keep ours whole
	for _, o := range options {
		fs.Var(&flagValue{o: o, c: &c, invalid: &invalid}, o.flag, o.help)
	}
	if err := fs.Parse(args); err != nil {
		if invalid != nil {
			err = invalid
		}
		return Config{}, nil, err
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://localhost:" + strconv.Itoa(c.Port)
	}
	return c, fs.Args(), nil
}

// flagValue sets one option from the command line.
type flagValue struct {
	o       option
	c       *Config
	invalid *error
}

func (f *flagValue) String() string { return "" }

func (f *flagValue) Set(v string) error {
	if err := f.o.set(f.c, v); err != nil {
		*f.invalid = fmt.Errorf("--%s %q: %w", f.o.flag, f.o.quoted(v), err)
		return *f.invalid
	}
	return nil
}

func (f *flagValue) IsBoolFlag() bool { return f.o.boolean }

// Usage prints the options: variable, flag, default and meaning.
func Usage(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tFLAG\tDEFAULT\tMEANING")
	for _, o := range options {
		fmt.Fprintf(tw, "%s\t--%s\t%s\t%s\n", o.env, o.flag, o.shownDefault(), o.help)
	}
	return tw.Flush()
}

func parsePort(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 65535 {
		return 0, errors.New("want a port number from 1 to 65535")
	}
	return n, nil
}

func parsePositiveInt(v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("want a whole number above 0")
	}
	return n, nil
}

func duration(field func(*Config) *time.Duration, zeroOK bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		switch {
		case err != nil:
			return errors.New("want a Go duration such as 30s, 10m or 1h")
		case d < 0 || (d == 0 && !zeroOK):
			return errors.New("want a duration above 0")
		}
		*field(c) = d
		return nil
	}
}

func boolean(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return errors.New("want 1 or 0 (true or false)")
		}
		*field(c) = b
		return nil
	}
}

// parseLogLevel reads debug, info, warn (warning) or error, in any case.
func parseLogLevel(v string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "info":
		return slog.LevelInfo, nil
	case "debug":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, errors.New("want debug, info, warn or error")
}

// checkHTTPURL accepts an absolute http or https URL.
func checkHTTPURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("want an absolute http:// or https:// URL")
	}
	return nil
}

// baseURL reads an http(s) URL that paths are appended to, without its
// trailing slashes: "https://sb.example.com/" would make the console's
// address https://sb.example.com//app.
func baseURL(v string) (string, error) {
	v = strings.TrimRight(v, "/")
	return v, checkHTTPURL(v)
}

// shortDuration writes 10m rather than Go's 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
