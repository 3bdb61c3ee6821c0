package main

// A throwaway PostgreSQL cluster for the trial, started the way the main
// module's internal/testdb starts one (initdb, pg_ctl, as the postgres user
// when run as root, because both refuse to run as root). It is written again
// here because the trial is its own module and cannot import internal/.

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

type cluster struct {
	dir string
	url string
}

// startCluster creates a cluster in a new temp dir. fsync chooses between the
// test suite's settings (fsync off, as in docs/performance.md) and durable ones.
func startCluster(fsync bool) (*cluster, error) {
	dir, err := os.MkdirTemp("", "rivertrial-pg-")
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
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200", port, dir)
	if !fsync {
		opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	if err := c.run("pg_ctl", "-D", c.dataDir(), "-l", filepath.Join(dir, "postgres.log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		c.stop()
		return nil, err
	}
	c.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return c, nil
}

func (c *cluster) dataDir() string { return filepath.Join(c.dir, "data") }

// postmasterPID is read so the trial can sum the CPU time of the server's
// processes (the database shares the 2 cores with the workers).
func (c *cluster) postmasterPID() (int, error) {
	b, err := os.ReadFile(filepath.Join(c.dataDir(), "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(first))
}

func (c *cluster) stop() error {
	err := c.run("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "stop")
	os.RemoveAll(c.dir)
	return err
}

func (c *cluster) run(prog string, args ...string) error {
	path, err := exec.LookPath(prog)
	if err != nil {
		return err
	}
	argv := append([]string{path}, args...)
	if os.Geteuid() == 0 {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = c.dir // the postgres user may not be able to enter our cwd
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %v: %w\n%s", prog, args, err, out.Bytes())
	}
	return nil
}

func chownForPostgres(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root needs a postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
