// Package testdb gives tests a fresh, migrated database per test on every
// engine available: always SQLite, and PostgreSQL when TEST_DATABASE_URL is set
// or initdb and pg_ctl are on PATH (then one throwaway cluster is started per
// test binary).
//
// Packages that use PostgreSQL must let testdb clean up after the test binary:
//
//	func TestMain(m *testing.M) { testdb.Main(m) }
//
// Set SWITCHBOARD_TEST_NO_PG=1 to skip PostgreSQL locally (e.g. for a quick
// run); it wins over everything else, so never set it in CI.
package testdb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/switchboard/switchboard/internal/db"
)

// Engine is one database engine the suite runs on.
type Engine struct {
	Name string // "sqlite" or "postgres"
}

const (
	sqliteName   = "sqlite"
	postgresName = "postgres"
)

// Engines lists the engines to run the suite on: always SQLite; PostgreSQL too
// when TEST_DATABASE_URL is set or initdb and pg_ctl are on PATH, unless
// SWITCHBOARD_TEST_NO_PG is set.
func Engines(t testing.TB) []Engine {
	t.Helper()
	engines := []Engine{{Name: sqliteName}}
	if postgresAvailable() {
		engines = append(engines, Engine{Name: postgresName})
	}
	return engines
}

// ForEach runs fn as a subtest per engine, named after the engine.
func ForEach(t *testing.T, fn func(t *testing.T, e Engine)) {
	t.Helper()
	for _, e := range Engines(t) {
		t.Run(e.Name, func(t *testing.T) { fn(t, e) })
	}
}

// New returns a fresh, migrated, empty database on e. It is closed (and on
// PostgreSQL dropped) when t ends.
func (e Engine) New(t testing.TB) *db.DB {
	t.Helper()
	u, migrated := e.create(t)
	d, err := db.Open(u)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	// Registered after create's cleanup, so it runs first: the database is
	// closed before it is dropped or its directory removed.
	t.Cleanup(func() { d.Close() })
	if !migrated {
		if err := migrate(d); err != nil {
			t.Fatalf("testdb: %v", err)
		}
	}
	return d
}

// NewURL creates a fresh, migrated, empty database on e and returns its
// DATABASE_URL, for tests that run a subprocess against it. It is removed
// when t ends.
func (e Engine) NewURL(t testing.TB) string {
	t.Helper()
	u, migrated := e.create(t)
	if !migrated {
		migrateURL(t, u)
	}
	return u
}

// create makes an empty database for t and reports whether it is migrated
// already (PostgreSQL databases are copies of a migrated template).
func (e Engine) create(t testing.TB) (u string, migrated bool) {
	t.Helper()
	switch e.Name {
	case sqliteName:
		return "sqlite://" + filepath.Join(t.TempDir(), "test.db"), false
	case postgresName:
		return createPostgres(t), true
	default:
		t.Fatalf("testdb: unknown engine %q", e.Name)
		return "", false
	}
}

func migrateURL(t testing.TB, u string) {
	t.Helper()
	d, err := db.Open(u)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	defer d.Close()
	if err := migrate(d); err != nil {
		t.Fatalf("testdb: %v", err)
	}
}

func migrate(d *db.DB) error { return d.Migrate(context.Background()) }

// Main runs the tests, then drops the template database and stops the
// cluster testdb started, if any, and exits with the tests' status. (Should
// the binary die first, a reaper process still stops the cluster.)
func Main(m *testing.M) {
	mainCalled.Store(true)
	code := m.Run()
	if err := shutdown(); err != nil {
		fmt.Fprintln(os.Stderr, "testdb:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// ---- PostgreSQL ----

// State of this test binary's PostgreSQL server, set up on first use.
var (
	setupOnce  sync.Once
	srv        *server
	setupErr   error
	mainCalled atomic.Bool
	dbCounter  atomic.Int64
	// namePrefix keeps database names unique among test binaries sharing one
	// server (go test runs packages in parallel).
	namePrefix = fmt.Sprintf("sbtest_%d_%04x", os.Getpid(), rand.IntN(1<<16))
)

type server struct {
	adminURL *url.URL // maintenance database; per-test URLs replace its path
	admin    *sql.DB
	template string
	force    bool     // DROP DATABASE ... WITH (FORCE) is supported (PG >= 13)
	cluster  *cluster // nil when TEST_DATABASE_URL names the server
}

func postgresAvailable() bool {
	if os.Getenv("SWITCHBOARD_TEST_NO_PG") != "" {
		return false
	}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		return true
	}
	_, errInit := exec.LookPath("initdb")
	_, errCtl := exec.LookPath("pg_ctl")
	return errInit == nil && errCtl == nil
}

// createPostgres copies the template into a new database for t and returns its
// URL; copying is much faster than migrating each database from scratch.
func createPostgres(t testing.TB) string {
	t.Helper()
	if !mainCalled.Load() {
		// Without Main the cluster (or template) would outlive the test binary.
		t.Fatal("testdb: PostgreSQL needs `func TestMain(m *testing.M) { testdb.Main(m) }` in this package")
	}
	setupOnce.Do(func() { srv, setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("testdb: setting up PostgreSQL: %v", setupErr)
	}
	name := fmt.Sprintf("%s_%d", namePrefix, dbCounter.Add(1))
	if _, err := srv.admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(name) + " TEMPLATE " + pq.QuoteIdentifier(srv.template)); err != nil {
		t.Fatalf("testdb: creating database: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.drop(name); err != nil {
			t.Errorf("testdb: %v", err)
		}
	})
	return srv.urlFor(name)
}

// setup finds or starts the server and creates the migrated template.
func setup() (*server, error) {
	s := &server{template: namePrefix + "_tmpl"}
	raw := os.Getenv("TEST_DATABASE_URL")
	if raw == "" {
		c, err := startCluster()
		if err != nil {
			return nil, err
		}
		s.cluster = c
		raw = c.url
	}
	var err error
	if s.adminURL, err = url.Parse(raw); err != nil {
		return s, fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	if s.admin, err = sql.Open("postgres", raw); err != nil {
		return s, err
	}
	var version int
	if err := s.admin.QueryRow(`SHOW server_version_num`).Scan(&version); err != nil {
		return s, fmt.Errorf("connecting to %s: %w", s.adminURL.Redacted(), err)
	}
	s.force = version >= 130000
	return s, s.createTemplate()
}

// createTemplate creates and migrates the template, then closes it: CREATE
// DATABASE ... TEMPLATE refuses while anyone is connected to the template.
func (s *server) createTemplate() error {
	if _, err := s.admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(s.template)); err != nil {
		return fmt.Errorf("creating template: %w", err)
	}
	d, err := db.Open(s.urlFor(s.template))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := migrate(d); err != nil {
		return fmt.Errorf("migrating template: %w", err)
	}
	return nil
}

func (s *server) urlFor(name string) string {
	u := *s.adminURL
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

// drop drops a database; FORCE ends connections a test (or its subprocess)
// left open.
func (s *server) drop(name string) error {
	q := "DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(name)
	if s.force {
		q += " WITH (FORCE)"
	}
	if _, err := s.admin.Exec(q); err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// shutdown drops the template and stops the cluster, if PostgreSQL was set up.
func shutdown() error {
	if srv == nil {
		return nil
	}
	var errs []error
	if srv.admin != nil {
		// Only matters on a shared server; a throwaway cluster goes anyway.
		if srv.cluster == nil {
			errs = append(errs, srv.drop(srv.template))
		}
		srv.admin.Close()
	}
	if srv.cluster != nil {
		errs = append(errs, srv.cluster.stop())
	}
	return errors.Join(errs...)
}

// ---- throwaway cluster ----

type cluster struct {
	dir string // holds data/, the socket and the log
	url string
}

func (c *cluster) dataDir() string { return filepath.Join(c.dir, "data") }
func (c *cluster) logFile() string { return filepath.Join(c.dir, "postgres.log") }

// startCluster runs initdb and pg_ctl start in a new temp dir. Durability is
// switched off: the cluster lives only as long as the test binary.
func startCluster() (*cluster, error) {
	dir, err := os.MkdirTemp("", "switchboard-pg-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir}
	if err := chownForPostgres(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.run("initdb", "-D", c.dataDir(), "-A", "trust", "-U", "postgres", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300"+
		" -c fsync=off -c synchronous_commit=off -c full_page_writes=off", port, dir)
	if err := c.run("pg_ctl", "-D", c.dataDir(), "-l", c.logFile(), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		err = fmt.Errorf("%w\n--- tail of %s ---\n%s", err, c.logFile(), c.logTail())
		c.stop() // postgres may be up even though pg_ctl gave up waiting
		return nil, err
	}
	c.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	if err := c.reapWhenGone(); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// reapWhenGone starts a detached shell that stops the cluster once this
// process has exited: a panicking test, a -timeout or Ctrl-C skip Main, and
// the postmaster, in a session of its own, would otherwise run on.
func (c *cluster) reapWhenGone() error {
	argv, err := c.command("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "stop")
	if err != nil {
		return err
	}
	const script = `pid=$1 dir=$2; shift 2
while kill -0 "$pid" 2>/dev/null; do sleep 1; done
"$@" >/dev/null 2>&1; rm -rf "$dir"`
	args := append([]string{"-c", script, "testdb-reaper", strconv.Itoa(os.Getpid()), c.dir}, argv...)
	cmd := exec.Command("sh", args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // out of reach of Ctrl-C
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting cluster reaper: %w", err)
	}
	return cmd.Process.Release()
}

// stop shuts the cluster down without a checkpoint and removes its files.
func (c *cluster) stop() error {
	err := c.run("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "stop")
	if rmErr := os.RemoveAll(c.dir); rmErr != nil {
		err = errors.Join(err, rmErr)
	}
	return err
}

// run runs a PostgreSQL program in the cluster's dir, with a time limit.
func (c *cluster) run(prog string, args ...string) error {
	argv, err := c.command(prog, args...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = c.dir // the postgres user may not be able to enter our cwd
	// pg_ctl start writes the server's output to the log file (-l), so the
	// detached postmaster holds no pipe of ours; WaitDelay bounds the wait
	// should that ever change.
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %v: %w\n%s", prog, args, err, out.Bytes())
	}
	return nil
}

// command is the argv that runs a PostgreSQL program, as the postgres user
// when we are root: initdb and pg_ctl refuse to run as root.
func (c *cluster) command(prog string, args ...string) ([]string, error) {
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, err
	}
	// runuser may reset PATH, so pass the absolute path.
	argv := append([]string{path}, args...)
	if os.Geteuid() == 0 {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	return argv, nil
}

func (c *cluster) logTail() string {
	b, err := os.ReadFile(c.logFile())
	if err != nil {
		return err.Error()
	}
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// chownForPostgres hands dir to the postgres user when we are root, since the
// cluster's programs run as that user.
func chownForPostgres(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root needs a postgres user to run initdb: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// freePort asks the kernel for an unused port. It is released before
// postgres binds it; the window for a clash is tiny.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
