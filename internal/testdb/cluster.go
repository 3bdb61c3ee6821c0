package testdb

// A throwaway PostgreSQL cluster, started with initdb and pg_ctl.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

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
