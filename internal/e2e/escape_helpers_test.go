//go:build linux

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listenUnix listens on a unix socket the test owns and returns a check
// that reports whether anything connected. path "@name" is abstract.
func listenUnix(t *testing.T, path string) func() bool {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if !strings.HasPrefix(path, "@") {
		os.Chmod(path, 0o777) // only omega-run may stand in the way
	}
	return func() bool {
		ln.(*net.UnixListener).SetDeadline(time.Now().Add(100 * time.Millisecond))
		c, err := ln.Accept()
		if c != nil {
			c.Close()
		}
		return err == nil
	}
}

func listenTCP(t *testing.T) (string, func() bool) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String(), func() bool {
		ln.(*net.TCPListener).SetDeadline(time.Now().Add(100 * time.Millisecond))
		c, err := ln.Accept()
		if c != nil {
			c.Close()
		}
		return err == nil
	}
}

// sleeper starts a process outside the sandbox, as u, and reports
// whether it is still alive.
func sleeper(t *testing.T, w *world) (int, func() bool) {
	t.Helper()
	c := w.cmdOf(t.Context(), "sleep", "30")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	t.Cleanup(func() { c.Process.Kill(); <-done })
	return c.Process.Pid, func() bool {
		select {
		case <-done:
			return false
		case <-time.After(100 * time.Millisecond):
			return true
		}
	}
}

// gitRepo makes a repository with one commit in the workspace.
func gitRepo(t *testing.T, w *world) string {
	t.Helper()
	dir := filepath.Join(w.dataDir, "workspace", "proj")
	mustMkdir(t, dir)
	run := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), gitEnv...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	writeFile(t, filepath.Join(dir, "a.txt"), "a")
	writeFile(t, filepath.Join(dir, ".envrc"), "export X=1\n")
	run("add", ".")
	run("commit", "-qm", "first")
	chownTree(t, filepath.Join(w.dataDir, "workspace"), w.u)
	return dir
}

var gitEnv = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1"}

func modeOf(t *testing.T, p string) os.FileMode {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Mode()
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// startReady starts omega-run with args, a probe that prints "ready"
// once it runs, and returns it when it has: its stdout from the next line
// on, and its stderr as it comes.
func startReady(t *testing.T, w *world, args ...string) (*exec.Cmd, io.Reader, *strings.Builder) {
	t.Helper()
	c := w.cmd(t.Context(), args...)
	pipe, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errb := &strings.Builder{}
	c.Stderr = errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(pipe)
	if line, _ := out.ReadString('\n'); line != "ready\n" {
		c.Wait()
		t.Fatalf("probe did not get ready: %q, stderr %s", line, errb.String())
	}
	return c, out, errb
}

// bindAfterStart runs omega-run with args (a probe that prints "ready"
// and then waits for hostSock), binds hostSock once the program runs,
// and reports whether anything connected to it. It is the case the
// sockets covered at the start cannot be: a host service that binds later.
func bindAfterStart(t *testing.T, w *world, hostSock string, args ...string) bool {
	t.Helper()
	var out, stderr string
	return bindAfterStartOut(t, w, hostSock, &out, &stderr, args...)
}

// bindAfterStartOut is bindAfterStart that also returns what the probe
// printed after "ready", and omega-run's stderr.
func bindAfterStartOut(t *testing.T, w *world, hostSock string, printed, stderr *string, args ...string) bool {
	t.Helper()
	c, out, errb := startReady(t, w, args...)
	// Bound aside and renamed into place: the probe must not find the
	// socket before listenUnix has opened its mode to everyone.
	got := listenUnix(t, hostSock+"~")
	if err := os.Rename(hostSock+"~", hostSock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(hostSock) })
	rest, _ := io.ReadAll(out)
	c.Wait()
	t.Logf("probe: %s stderr: %s", rest, errb.String())
	*printed, *stderr = string(rest), errb.String()
	return got()
}

// worldID is the random part of w's directory: short, for socket paths.
func worldID(w *world) string {
	base := filepath.Base(filepath.Dir(w.home))
	return base[strings.LastIndex(base, "-")+1:]
}

// claudeSettingsAt makes a Claude Code settings file p ("{}") owned by
// w's user, and returns p.
func claudeSettingsAt(t *testing.T, w *world, p string) string {
	t.Helper()
	mustMkdir(t, filepath.Dir(p))
	writeFile(t, p, "{}\n")
	chownTree(t, filepath.Dir(p), w.u)
	return p
}
