// Command switchboard serves the Switchboard customer-conversation service:
// REST API, GraphQL API and web console on one port.
//
//	switchboard                 serve (PORT, DATABASE_URL, STORAGE_DIR)
//	switchboard bootstrap ...   create an account and its administrator
//	switchboard users reset-password --email E [--password P]
//	switchboard tokens rotate --email E
//	switchboard backup FILE     (SQLite: online copy; PostgreSQL: the pg_dump command)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	// The IANA time zone database, built in: inbox timezones are validated
	// with time.LoadLocation, which would reject every name on a machine
	// (or a scratch container) without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/storage"
)

func main() {
	var err error
	cmd, args, ok := findSubcommand(os.Args[1:])
	switch {
	case ok:
		err = cmd(args, os.Stdout)
	case len(os.Args) > 1:
		// A mistyped command must not start a server instead.
		err = fmt.Errorf("unknown command %q (commands: bootstrap, users reset-password, tokens rotate, backup; none serves)", strings.Join(os.Args[1:], " "))
	default:
		err = serve()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "switchboard:", err)
		os.Exit(1)
	}
}

// config is the whole configuration: one environment variable per line.
type config struct {
	Port        string
	DatabaseURL string
	StorageDir  string
	MaxFileSize int64
	PublicURL   string
	// CatchUp is how late a scheduled message may still fire after downtime.
	CatchUp time.Duration
	// DatabaseWait is how long start-up waits for an unreachable database.
	DatabaseWait time.Duration
	// ShutdownTimeout bounds the wait for in-flight requests at SIGTERM.
	ShutdownTimeout time.Duration
	LogLevel        slog.Level
}

func loadConfig() (config, error) {
	c := config{
		Port:            envOr("PORT", "3000"),
		DatabaseURL:     envOr("DATABASE_URL", db.DefaultURL),
		StorageDir:      envOr("STORAGE_DIR", "./storage"),
		MaxFileSize:     envInt64("MAX_ATTACHMENT_BYTES", storage.DefaultMaxFileSize),
		CatchUp:         envDuration("SCHEDULE_CATCH_UP_WINDOW", ops.DefaultCatchUpWindow),
		DatabaseWait:    envWait("DATABASE_WAIT", 30*time.Second),
		ShutdownTimeout: envDuration("SHUTDOWN_TIMEOUT", server.DefaultShutdownTimeout),
	}
	c.PublicURL = envOr("PUBLIC_URL", "http://localhost:"+c.Port)
	var err error
	c.LogLevel, err = parseLogLevel(os.Getenv("LOG_LEVEL"))
	return c, err
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func envInt64(name string, def int64) int64 {
	n, err := strconv.ParseInt(os.Getenv(name), 10, 64)
	if err != nil || n <= 0 {
		return def
	}
	return n
}

// envWait is envDuration where 0 is a value: do not wait.
func envWait(name string, def time.Duration) time.Duration {
	if os.Getenv(name) == "0" {
		return 0
	}
	return envDuration(name, def)
}

func envDuration(name string, def time.Duration) time.Duration {
	d, err := time.ParseDuration(os.Getenv(name))
	if err != nil || d <= 0 {
		return def
	}
	return d
}

func openDatabase(ctx context.Context, url string, wait time.Duration) (*db.DB, error) {
	database, err := waitForDatabase(ctx, url, wait, db.Open)
	if err != nil {
		return nil, err
	}
	if err := database.Migrate(ctx); err != nil {
		database.Close()
		return nil, err
	}
	return database, nil
}

func serve() error {
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	logger := newLogger(os.Stderr, cfg.LogLevel)
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	database, err := openDatabase(ctx, cfg.DatabaseURL, cfg.DatabaseWait)
	if err != nil {
		return err
	}
	defer database.Close()
	st, err := storage.Open(cfg.StorageDir, cfg.MaxFileSize)
	if err != nil {
		return fmt.Errorf("STORAGE_DIR: %w", err)
	}
	srv := server.New(server.Config{Storage: st, CatchUp: cfg.CatchUp, PublicURL: cfg.PublicURL, Logger: logger,
		ShutdownTimeout: cfg.ShutdownTimeout}, database)
	if err := firstStart(ctx, srv.Svc, cfg, os.Stdout); err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.App.Listen(":" + cfg.Port) }()
	slog.Info("switchboard listening", "port", cfg.Port, "database", database.Dialect)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	done := make(chan error, 1)
	go func() {
		err := srv.Shutdown()
		logJobsRun(srv.Jobs.Ran())
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(cfg.ShutdownTimeout + 5*time.Second):
		return errors.New("shutdown timed out")
	}
}

// firstStart sets up a fresh install: a first account and administrator, and
// tells the operator how to reach them.
func firstStart(ctx context.Context, svc *ops.Service, cfg config, out io.Writer) error {
	empty, err := svc.IsEmpty(ctx)
	if err != nil || !empty {
		return err
	}
	password := ops.RandomPassword()
	b, err := svc.Bootstrap(ctx, ops.BootstrapInput{
		AccountName: "My Account", Email: "admin@example.com", Name: "Administrator", Password: password,
	})
	if err != nil {
		return fmt.Errorf("first-start setup: %w", err)
	}
	fmt.Fprintf(out, `
Switchboard is set up.
  Console:          %s/app  (sign in as admin@example.com / %s)
  Account id:       %d
  API access token: %s
  Platform token:   %s
Keep these: the tokens are stored hashed and cannot be shown again.

`, cfg.PublicURL, password, b.AccountID, b.AccessToken, b.PlatformToken)
	return nil
}

// bootstrap creates an account and an administrator and prints one line of
// JSON: {"account_id","user_id","access_token"[,"platform_token"]}.
func bootstrap(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bootstrap", flag.ContinueOnError)
	accountName := fs.String("account-name", "", "name of the new account (required)")
	email := fs.String("email", "", "administrator's e-mail (required; an existing user is reused)")
	name := fs.String("name", "", "administrator's name")
	password := fs.String("password", "", "administrator's console password (optional)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *accountName == "" || *email == "" {
		fs.Usage()
		return errors.New("bootstrap needs --account-name and --email")
	}
	ctx := context.Background()
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	database, err := openDatabase(ctx, cfg.DatabaseURL, cfg.DatabaseWait)
	if err != nil {
		return err
	}
	defer database.Close()
	b, err := ops.New(database.Client).Bootstrap(ctx, ops.BootstrapInput{
		AccountName: *accountName, Email: *email, Name: *name, Password: *password,
	})
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(b)
}

// logJobsRun reports, at shutdown, how many jobs of each kind this instance
// ran: with several instances on one database, how they shared the work.
func logJobsRun(ran map[string]int64) {
	args := make([]any, 0, 2*len(ran))
	for table, n := range ran {
		args = append(args, table, n)
	}
	slog.Info("jobs run", args...)
}
