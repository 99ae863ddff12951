//go:build linux

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bin is the omega-run binary built once for the whole package; probe is
// a helper that performs one action from inside (see probe/main.go).
var bin, probe string

// root is a world-readable scratch dir outside every writable root
// (t.TempDir lives under /tmp, which the sandbox may write).
var root string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	defaultInterrupts()
	var err error
	root, err = os.MkdirTemp("/var/tmp", "omega-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	os.Chmod(root, 0o755)
	bin = filepath.Join(root, "omega-run")
	probe = filepath.Join(root, "probe")
	builds := map[string]string{bin: "../..", probe: "./probe"}
	// OMEGA_E2E_BIN runs the suite against a given omega-run, the static
	// release build (make test does) rather than a fresh dynamic one.
	if given := os.Getenv("OMEGA_E2E_BIN"); given != "" {
		if err := copyFile(given, bin); err != nil {
			fmt.Fprintln(os.Stderr, "OMEGA_E2E_BIN:", err)
			return 1
		}
		delete(builds, bin)
	}
	for out, pkg := range builds {
		build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs "+os.Getenv("OMEGA_E2E_TAGS"), "-o", out, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", pkg+":", err)
			return 1
		}
	}
	return m.Run()
}

// defaultInterrupts gives the commands the tests start SIGINT and
// SIGQUIT at their default, as an interactive shell does, where this
// process was started with them ignored (a background job of a script:
// nohup make test &). Ignored, they stayed ignored in omega-run, and the
// Ctrl-C tests failed with the program run. A signal the runtime handles
// is reset to its default in a child; one ignored at start is kept.
func defaultInterrupts() {
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGQUIT} {
		if signal.Ignored(sig) {
			signal.Notify(make(chan os.Signal, 1), sig)
		}
	}
}

// user is who runs omega-run in a test.
type user struct {
	name     string
	uid, gid int
}

var (
	rootUser = user{"root", 0, 0}
	nobody   = user{"nobody", 65534, 65534}
	users    = []user{rootUser, nobody}
)

// world is one test's view of a user's machine: a home, a data dir and a
// sentinel dir outside the writable set, all owned by the user so that
// only omega-run (not file permissions) can stop a write.
type world struct {
	t       *testing.T
	u       user
	home    string
	dataDir string
	outside string // not writable by policy, writable by permissions
	extra   string // passed as --allow-write where a test wants it
	// timeout bounds each run (30 s unless a test sets more).
	timeout time.Duration
	// dir is the working directory of runs ("" is home).
	dir string
	// extraEnv is added to the environment of asNotifyService's runs.
	extraEnv []string
}

func newWorld(t *testing.T, u user) *world {
	t.Helper()
	requireRoot(t)
	base, err := os.MkdirTemp(root, strings.ReplaceAll(t.Name(), "/", "_")+"-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(base, 0o755)
	w := &world{t: t, u: u, home: filepath.Join(base, "home"), timeout: 30 * time.Second}
	w.dataDir = filepath.Join(w.home, ".omega")
	w.outside = filepath.Join(w.home, "outside")
	w.extra = filepath.Join(base, "extra")
	for _, d := range []string{w.home, w.outside, w.extra, filepath.Join(w.dataDir, "workspace")} {
		mustMkdir(t, d)
	}
	writeFile(t, filepath.Join(w.outside, "sentinel"), "original")
	chownTree(t, base, u)
	t.Cleanup(func() { os.RemoveAll(base) })
	return w
}

// usersDir makes a directory below the suite's root that every test
// user may read and search (for the copies a test installs there), and
// removes it at the test's end.
func usersDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp(root, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func requireRoot(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test (-short)")
	}
	if os.Geteuid() != 0 {
		t.Skip("requires root (it creates files for other users)")
	}
}

func mustMkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeExec is writeFile of a program: mode 0755.
func writeExec(t *testing.T, p, content string) {
	t.Helper()
	writeFile(t, p, content)
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func chownTree(t *testing.T, dir string, u user) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, u.uid, u.gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// result is what one omega-run invocation did.
type result struct {
	stdout, stderr string
	code           int
}

// cmd builds an omega-run invocation as w's user with w's home.
func (w *world) cmd(ctx context.Context, args ...string) *exec.Cmd {
	return w.cmdOf(ctx, bin, args...)
}

// cmdOf is cmd for any program (a wrapper around omega-run).
func (w *world) cmdOf(ctx context.Context, prog string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, prog, args...)
	c.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"}
	c.Dir = w.home
	if w.dir != "" {
		c.Dir = w.dir
	}
	if w.u.uid != 0 {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{
			Uid: uint32(w.u.uid), Gid: uint32(w.u.gid), Groups: []uint32{},
		}}
	}
	return c
}

// run runs omega-run to completion (30 s at most).
func (w *world) run(args ...string) result {
	w.t.Helper()
	return w.runProg(bin, args...)
}

// under runs omega-run under a wrapper: wrapper[0] with wrapper[1:], then
// omega-run and args.
func (w *world) under(wrapper []string, args ...string) result {
	w.t.Helper()
	return w.runProg(wrapper[0], append(append(wrapper[1:len(wrapper):len(wrapper)], bin), args...)...)
}

func (w *world) runProg(prog string, args ...string) result {
	w.t.Helper()
	return w.runWith(nil, nil, prog, args...)
}

// runIn runs omega-run in dir.
func (w *world) runIn(dir string, args ...string) result {
	w.t.Helper()
	saved := w.dir
	w.dir = dir
	defer func() { w.dir = saved }()
	return w.runWith(nil, nil, bin, args...)
}

// runProgIn runs prog (not omega-run) in dir, as w's user.
func (w *world) runProgIn(dir, prog string, args ...string) result {
	w.t.Helper()
	saved := w.dir
	w.dir = dir
	defer func() { w.dir = saved }()
	return w.runWith(nil, nil, prog, args...)
}

// runEnv runs omega-run with extra environment variables.
func (w *world) runEnv(env []string, args ...string) result {
	w.t.Helper()
	return w.runWith(env, nil, bin, args...)
}

// withFD3 runs a program that writes to fd 3, a pipe the test holds, with
// or without --preserve-fds, and reports whether the write arrived.
func (w *world) withFD3(mode string, preserve bool) bool {
	w.t.Helper()
	r, wr, err := os.Pipe()
	if err != nil {
		w.t.Fatal(err)
	}
	defer r.Close()
	args := []string{"--mode", mode}
	if preserve {
		args = append(args, "--preserve-fds", "1")
	}
	w.runWith(nil, []*os.File{wr}, bin, append(args, "--", "/bin/sh", "-c", "echo leak >&3")...)
	wr.Close()
	b, _ := io.ReadAll(r)
	return strings.Contains(string(b), "leak")
}

func (w *world) runWith(env []string, extra []*os.File, prog string, args ...string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	c := w.cmdOf(ctx, prog, args...)
	c.Env = append(c.Env, env...)
	c.ExtraFiles = extra
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	// After the deadline's kill, descendants that hold the pipes (rwx has
	// no pid namespace to end them) must not stall the package.
	c.WaitDelay = 5 * time.Second
	err := c.Run()
	if ctx.Err() != nil {
		w.t.Fatalf("%s %q: still running after %v (killed); stdout %.300q, stderr %.300q", prog, args, w.timeout, out.String(), errb.String())
	}
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			w.t.Fatalf("running omega-run: %v", err)
		}
	}
	return result{out.String(), errb.String(), shellStatus(c.ProcessState)}
}

// shellStatus is the status as a shell reports it: 128+N for signal N.
func shellStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// sh runs a shell script under omega-run in mode.
func (w *world) sh(mode, script string, extra ...string) result {
	w.t.Helper()
	vars := fmt.Sprintf("S=%q O=%q W=%q DATA=%q X=%q P=%q; ", filepath.Join(w.outside, "sentinel"), w.outside,
		filepath.Join(w.dataDir, "workspace"), w.dataDir, w.extra, probe)
	args := append([]string{"--mode", mode}, extra...)
	return w.run(append(args, "--", "/bin/sh", "-c", vars+script)...)
}

func (w *world) sentinel() string {
	b, err := os.ReadFile(filepath.Join(w.outside, "sentinel"))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func (w *world) exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// confinedModes are the modes that must confine; rwx is the control that
// shows each attack works when nothing confines it.
var confinedModes = []string{"sandbox", "rx"}

func init() { runtime.GOMAXPROCS(2) }

// underRootWrapper runs omega-run's args as w's user after script, run as
// root in a private mount namespace, has changed the view around it (a
// unit's or container's mounts); a failed script exits 99.
func underRootWrapper(w *world, script string, args ...string) result {
	w.t.Helper()
	return underRootWrapperOf(w, bin, script, args...)
}

// underRootWrapperOf is underRootWrapper for the binary prog.
func underRootWrapperOf(w *world, prog, script string, args ...string) result {
	w.t.Helper()
	asRoot := *w
	asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller w.u again
	full := fmt.Sprintf("%s || exit 99\nexec setpriv --reuid=%d --regid=%d --clear-groups \"$@\"", script, w.u.uid, w.u.gid)
	return asRoot.runProg("unshare", append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", full, "sh", prog}, args...)...)
}

// copyFile copies an executable to dst, readable and runnable by every
// test user.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// runDir makes a directory in the host's /run (which sandbox mode
// replaces), removed with t.
func runDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := os.MkdirTemp("/run", "omega-e2e-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
