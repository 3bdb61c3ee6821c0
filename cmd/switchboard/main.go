// Command switchboard serves the Switchboard customer-conversation service:
// REST API, GraphQL API and web console on one port.
//
//	switchboard [flags]         serve (configuration: switchboard --help)
//	switchboard bootstrap ...   create an account and its administrator
//	switchboard migrate up|status
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
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	// The IANA time zone database, built in: inbox timezones are validated
	// with time.LoadLocation, which would reject every name on a machine
	// (or a scratch container) without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/storage"
)

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "switchboard:", err)
		os.Exit(1)
	}
}

// run reads the configuration (environment, then flags before the command)
// and serves, or runs the command named by the first arguments.
func run(args []string, getenv func(string) string, out io.Writer) error {
	cfg, rest, err := config.Load(args, getenv)
	if errors.Is(err, config.ErrHelp) {
		return usage(out)
	}
	if err != nil {
		return err
	}
	outbound.SetAllowPrivate(cfg.AllowPrivateNetworks)
	if len(rest) == 0 {
		return serve(cfg, config.TuneRuntime(getenv, memlimit.FromCgroup))
	}
	cmd, cmdArgs, ok := findSubcommand(rest)
	if !ok {
		// A mistyped command must not start a server instead.
		return fmt.Errorf("unknown command %q (commands: %s; none serves; --help lists them)", strings.Join(rest, " "), commandNames())
	}
	return cmd(cfg, cmdArgs, out)
}

func usage(out io.Writer) error {
	fmt.Fprint(out, `Usage: switchboard [flags] [command]

Without a command, switchboard serves REST, GraphQL and the console on one port.

Commands:
  bootstrap --account-name A --email E [--name N] [--password P]
  migrate up             apply the pending schema migrations
  migrate status         where the database stands against this binary's migrations
  users reset-password --email E [--password P]
  tokens rotate --email E
  backup FILE

Configuration: each environment variable, or its flag (which wins):

`)
	return config.Usage(out)
}

// openDatabase opens DATABASE_URL, waiting for it as DATABASE_WAIT says, and
// brings its schema up to date or refuses it (prepareSchema).
func openDatabase(ctx context.Context, cfg config.Config) (*db.DB, error) {
	database, err := waitForDatabase(ctx, cfg.DatabaseURL, cfg.DatabaseWait, db.Open)
	if err != nil {
		return nil, err
	}
	dir, err := database.Migrations()
	if err == nil {
		err = prepareSchema(ctx, database, dir, cfg.AutoMigrate)
	}
	if err != nil {
		database.Close()
		return nil, err
	}
	return database, nil
}

// serve runs the server until SIGTERM or Ctrl-C; mem is what TuneRuntime
// set of the collector, for the log.
func serve(cfg config.Config, mem config.RuntimeMemory) error {
	logger := newLogger(os.Stderr, cfg.LogLevel)
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The port first: one taken stops the start before it sets anything up
	// (a first start printed its administrator's password, then failed).
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(cfg.Port))
	if err != nil {
		return fmt.Errorf("PORT=%d: %w", cfg.Port, err)
	}
	defer ln.Close()
	database, err := openDatabase(ctx, cfg)
	if err != nil {
		return err
	}
	defer database.Close()
	st, err := storage.Open(cfg.StorageDir, cfg.MaxAttachmentBytes)
	if err != nil {
		return fmt.Errorf("STORAGE_DIR: %w", err)
	}
	srv := server.New(server.Config{Storage: st, CatchUp: cfg.CatchUp, PublicURL: cfg.PublicURL, Logger: logger,
		ShutdownTimeout: cfg.ShutdownTimeout, WhatsAppAPIBase: cfg.WhatsAppAPIBase, Retries: cfg.Retries,
		AttemptRetention: cfg.AttemptRetention, DeliveryRetention: cfg.DeliveryRetention,
		IMAPPollInterval: cfg.IMAPPollInterval}, database)
	if err := srv.Warm(ctx); err != nil {
		// The pool opens connections on demand anyway.
		slog.Warn("warming the database connections", "err", err)
	}
	if err := firstStart(ctx, srv.Svc, cfg, os.Stdout); err != nil {
		return err
	}
	returnStartupMemory()
	errc := make(chan error, 1)
	go func() { errc <- srv.App.Listener(ln) }()
	slog.Info("switchboard listening", "port", cfg.Port, "database", database.Dialect,
		"gc_percent", mem.GCPercent, "memory_limit_bytes", mem.MemoryLimit)
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

// returnStartupMemory hands back to the system the memory that starting
// used once and freed: the migrations of a first start, the first account,
// warming the connections. The runtime returns freed heap only gradually,
// and an idle server kept it: 45 s after a first start on SQLite, its
// anonymous memory was 17.5-19.2 MB, 16.0-16.4 MB with this (three starts
// each, docs/performance.md). It costs one garbage collection before
// listening.
func returnStartupMemory() { debug.FreeOSMemory() }

// firstStart sets up a fresh install: a first account and administrator, and
// tells the operator how to reach them.
func firstStart(ctx context.Context, svc *ops.Service, cfg config.Config, out io.Writer) error {
	empty, err := svc.IsEmpty(ctx)
	if err != nil || !empty {
		return err
	}
	password := accounts.RandomPassword()
	b, err := svc.Bootstrap(ctx, accounts.BootstrapInput{
		AccountName: "My Account", Email: "admin@example.com", Name: "Administrator", Password: password,
	})
	if err != nil {
		// Instances started together on an empty database all find it
		// empty; one sets it up, and the others' set-up (the same
		// administrator) is refused: they serve what it made.
		if again, emptyErr := svc.IsEmpty(ctx); emptyErr == nil && !again {
			slog.Info("another instance set up the installation; serving it")
			return nil
		}
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
func bootstrap(cfg config.Config, args []string, out io.Writer) error {
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
	database, err := openDatabase(ctx, cfg)
	if err != nil {
		return err
	}
	defer database.Close()
	b, err := ops.New(database.Client).Bootstrap(ctx, accounts.BootstrapInput{
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
