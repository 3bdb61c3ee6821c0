package testdb

// A PostgreSQL server for the tests: TEST_DATABASE_URL's, or a throwaway
// cluster (cluster.go), holding a migrated template database.

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lib/pq"

	"github.com/switchboard/switchboard/internal/db"
)

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

// createPostgres copies a template (empty: the migrated one) into a new
// database for t and returns its URL; copying is much faster than migrating
// each database from scratch.
func createPostgres(t testing.TB, template string) string {
	t.Helper()
	if !mainCalled.Load() {
		// Without Main the cluster (or template) would outlive the test binary.
		t.Fatal("testdb: PostgreSQL needs `func TestMain(m *testing.M) { testdb.Main(m) }` in this package")
	}
	setupOnce.Do(func() { srv, setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("testdb: setting up PostgreSQL: %v", setupErr)
	}
	if template == "" {
		template = srv.template
	}
	name := fmt.Sprintf("%s_%d", namePrefix, dbCounter.Add(1))
	if _, err := srv.admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(name) + " TEMPLATE " + pq.QuoteIdentifier(template)); err != nil {
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
	s, err := openServer()
	if err != nil {
		return s, err
	}
	s.template = namePrefix + "_tmpl"
	return s, s.createTemplate()
}

// openServer connects to TEST_DATABASE_URL's server, or starts a throwaway
// cluster.
func openServer() (*server, error) {
	s := &server{}
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
	return s, nil
}

// ScratchPostgres creates an empty PostgreSQL database for a tool (not a
// test), on TEST_DATABASE_URL's server or else in a throwaway cluster, and
// returns its URL and the function that drops it (and stops the cluster).
func ScratchPostgres() (string, func() error, error) {
	s, err := openServer()
	if err != nil {
		return "", nil, errors.Join(err, s.close())
	}
	name := namePrefix + "_scratch"
	if _, err := s.admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(name) + " TEMPLATE template0"); err != nil {
		return "", nil, errors.Join(fmt.Errorf("creating scratch database: %w", err), s.close())
	}
	drop := func() error { return errors.Join(s.drop(name), s.close()) }
	return s.urlFor(name), drop, nil
}

// close disconnects and stops the cluster, if testdb started one.
func (s *server) close() error {
	var errs []error
	if s.admin != nil {
		errs = append(errs, s.admin.Close())
	}
	if s.cluster != nil {
		errs = append(errs, s.cluster.stop())
	}
	return errors.Join(errs...)
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
	var err error
	// Only matters on a shared server; a throwaway cluster goes anyway.
	if srv.admin != nil && srv.cluster == nil && srv.template != "" {
		err = srv.drop(srv.template)
	}
	return errors.Join(err, srv.close())
}
