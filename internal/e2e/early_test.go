//go:build linux

package e2e

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEarlyStartDecided: the CLI starts a sandbox init stage before it
// has parsed its config file, from the command line, the environment and
// a quick look at the file; the parsed file then decides. A config asking for --net none must get a network
// namespace (the early init stage has none: it is dropped), one asking
// for rx or rwx must run the program in place with no init stage left as
// its child; judged from outside by a listener the test owns and by a
// subreaper around omega-run. No config is the control: the early init
// stage runs the program, which reaches the listener.
func TestEarlyStartDecided(t *testing.T) {
	cases := []struct {
		config, mode string
		connects     bool
	}{
		{"", "sandbox", true},
		{`net = "none"`, "sandbox", false},
		{`mode = "rx"`, "rx", true},
		{`mode = "rwx"`, "rwx", true},
		// Dotted keys: the constructor's quick look at the file does not
		// see them, so it starts the init stage and Go must drop it.
		{`sandbox.net = "none"`, "sandbox", false},
		{`sandbox.mode = "rx"`, "rx", true},
		{`sandbox.mode = "rwx"`, "rwx", true},
	}
	for _, u := range users {
		for _, c := range cases {
			t.Run(u.name+"/"+c.mode+"/"+strings.ReplaceAll(c.config, " ", ""), func(t *testing.T) {
				w := newWorld(t, u)
				if c.config != "" && strings.HasPrefix(c.config, "sandbox.") {
					writeFile(t, filepath.Join(w.dataDir, "config.toml"), c.config+"\n")
				} else if c.config != "" {
					writeFile(t, filepath.Join(w.dataDir, "config.toml"), "[sandbox]\n"+c.config+"\n")
				}
				ln, err := net.Listen("tcp4", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				// The shell's children: the cat that lists them, nothing else.
				script := `echo "mode $OMEGA_SANDBOX children $(cat /proc/$$/task/$$/children | wc -w)"; ` +
					probe + " connect tcp4 " + ln.Addr().String()
				r := w.runProg(probe, "subreaper", bin, "--", "/bin/sh", "-c", script)
				ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
				conn, err := ln.Accept()
				if conn != nil {
					conn.Close()
				}
				if got := err == nil; got != c.connects {
					t.Errorf("listener got a connection: %v, want %v (stdout %q stderr %q)", got, c.connects, r.stdout, r.stderr)
				}
				if want := "mode " + c.mode + " children 1\n"; !strings.Contains(r.stdout, want) || r.code != 0 {
					t.Errorf("stdout %q (stderr %q, exit %d), want %q and nothing left behind", r.stdout, r.stderr, r.code, want)
				}
			})
		}
	}
}

// TestEarlyStartEnvironment: a variable set twice in omega-run's
// environment reaches the program once, with its first value, as Go's
// os.Environ passes it — no early init stage, which would have the raw
// environment, is started then. The harness's exec.Cmd would drop the duplicate itself,
// so omega-run is started with syscall.ForkExec.
func TestEarlyStartEnvironment(t *testing.T) {
	w := newWorld(t, rootUser)
	for _, env := range [][]string{{"DUP=first", "DUP=second"}, {"DUP=first"}} {
		r, wr, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		// env(1) prints its environment as it got it (a shell would
		// keep one of the two itself).
		argv := []string{bin, "--", "/usr/bin/env"}
		pid, err := syscall.ForkExec(bin, argv, &syscall.ProcAttr{
			Dir:   w.home,
			Env:   append([]string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}, env...),
			Files: []uintptr{0, wr.Fd(), 2},
		})
		wr.Close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(r)
		r.Close()
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		var dups []string
		for _, kv := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(kv, "DUP=") {
				dups = append(dups, kv)
			}
		}
		if got := strings.Join(dups, " "); got != "DUP=first" || ws.ExitStatus() != 0 {
			t.Errorf("env %q: the program saw %q (exit %d), want DUP=first once", env, got, ws.ExitStatus())
		}
	}
}

// TestEarlyStartInheritance: the early init stage is a fork of the
// caller's process from before the Go runtime, the usual one an exec from
// the Go launcher; the program must not tell them apart. The caller here
// ignores and blocks a mix of signals (what a nohup, a background job or a
// supervisor leaves) and closes fd 0; the program reports its signal state
// and fd 0 through both paths (--workdir keeps the CLI from starting early)
// and they must match: every signal the caller ignored stays ignored, as
// an execve leaves it (bar SIGCHLD, the faults and SIGPROF:
// nsexec.Inheritable), in rx and rwx too; blocked signals stay blocked
// (TestProgramSigmask); fd 0 is /dev/null.
func TestEarlyStartInheritance(t *testing.T) {
	w := newWorld(t, nobody)
	const ignored, blocked = "1,2,3,10,12,13,15,20,21,22,25,31,40", "5,12,14,23,27,34,40"
	run := func(args ...string) string {
		// The programs report on themselves: a shell in between would
		// change its own mask (it blocks signals while it waits). The probe
		// sets the signals; a shell closes fd 0 (the probe, in Go, would
		// have /dev/null opened on it).
		argv := append([]string{"with-signals", ignored, blocked, bin}, args...)
		r := w.runProg(probe, append(argv, "--", "/bin/grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status")...)
		argv = append([]string{"-c", `exec "$@" <&-`, "sh", bin}, args...)
		r2 := w.runProg("/bin/sh", append(argv, "--", "/bin/readlink", "/proc/self/fd/0")...)
		if r.code != 0 || r2.code != 0 {
			t.Fatalf("%v: exit %d and %d, stderr %q %q", args, r.code, r2.code, r.stderr, r2.stderr)
		}
		return r.stdout + r2.stdout
	}
	early, reexec := run(), run("--workdir", w.home)
	if early != reexec {
		t.Errorf("the program's signal state and fd 0 differ:\nstarted early: %q\nre-executed:   %q", early, reexec)
	}
	sigIgn := func(out string) uint64 {
		for _, l := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(l, "SigIgn:\t"); ok {
				ign, _ := strconv.ParseUint(v, 16, 64)
				return ign
			}
		}
		return 0
	}
	// What else the test's own caller left ignored (32-34, say) is passed
	// on alike: only the listed signals are checked.
	check := func(how, out string) {
		ign := sigIgn(out)
		for _, f := range strings.Split(ignored, ",") {
			n, _ := strconv.Atoi(f)
			want := n != 31 // SIGSYS, a fault: not inheritable
			if got := ign&(1<<(n-1)) != 0; got != want {
				t.Errorf("%s: signal %d ignored = %v, want %v (%q)", how, n, got, want, out)
			}
		}
	}
	check("re-executed", reexec)
	check("started early", early)
	for _, mode := range []string{"rx", "rwx"} {
		check(mode, run("--mode", mode))
	}
	if !strings.HasSuffix(reexec, "/dev/null\n") {
		t.Errorf("re-executed: %q, want fd 0 on /dev/null", reexec)
	}
}

// TestEarlyStartTaken: the early start is what sandbox launches get, for
// root and for unprivileged users alike (the helper that writes the id
// maps must do so before the init stage stops being dumpable, or an
// unprivileged one may not open them, and the launch quietly falls back
// to the slower path). A re-executed init stage's /proc/1/cmdline is
// its argv (initCommand's); an early start's keeps the launcher's longer
// argument area, NULs after the same two words (rename_self).
func TestEarlyStartTaken(t *testing.T) {
	if strings.Contains(os.Getenv("OMEGA_E2E_TAGS"), "omega_goinit") {
		t.Skip("the Go init stage is always re-executed")
	}
	const reexecuted = "omega-run-init\x00__omega_run_init__\x00"
	early := func(r result) bool {
		return strings.HasPrefix(r.stdout, reexecuted) && len(r.stdout) > len(reexecuted)
	}
	for _, u := range users {
		w := newWorld(t, u)
		for i := 0; i < 10; i++ {
			if r := w.run("--", "/bin/cat", "/proc/1/cmdline"); !early(r) {
				t.Fatalf("%s, run %d: PID 1's cmdline is %q (stderr %q), want an early start's", u.name, i, r.stdout, r.stderr)
			}
		}
		if r := w.run("--workdir", w.home, "--", "/bin/cat", "/proc/1/cmdline"); r.stdout != reexecuted {
			t.Errorf("%s, --workdir: PID 1's cmdline is %q (stderr %q), want %q (re-executed)", u.name, r.stdout, r.stderr, reexecuted)
		}
	}
}

// TestEarlyStartLentSlot: the constructor lends the last environment
// entry's slot to GOMAXPROCS=1 for the launcher's own Go runtime, and main
// gives it back. Whichever process starts the program — the early init
// stage (raw environment), Go after the config decided otherwise (--net
// none, rx, rwx), or Go alone (rx and rwx by flag: no early start) — the
// program must get the caller's environment as it was, in its order; a
// GOMAXPROCS or GODEBUG of the caller's stays as given. env -i starts
// omega-run with exactly these.
func TestEarlyStartLentSlot(t *testing.T) {
	envs := [][]string{
		{"A=1", "ZZ_LAST=kept"},
		{"GOMAXPROCS=3", "ZZ_LAST=kept"},
		{"A=1", "GODEBUG=madvdontneed=1"},
	}
	// Dotted keys: the constructor's quick look at the file does not see
	// them, so it starts the init stage and Go drops it.
	launches := []struct{ config, flag string }{
		{"", ""},
		{`sandbox.net = "none"`, ""},
		{`sandbox.mode = "rx"`, ""},
		{`sandbox.mode = "rwx"`, ""},
		{"", "rx"},
		{"", "rwx"},
	}
	for _, u := range users {
		for _, l := range launches {
			for i, extra := range envs {
				name := u.name + "/" + strings.ReplaceAll(l.config, " ", "") + l.flag + "/" + strconv.Itoa(i)
				t.Run(name, func(t *testing.T) {
					w := newWorld(t, u)
					if l.config != "" {
						writeFile(t, filepath.Join(w.dataDir, "config.toml"), l.config+"\n")
					}
					env := append([]string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}, extra...)
					args := append(append([]string{"-i"}, env...), bin)
					if l.flag != "" {
						args = append(args, "--mode", l.flag)
					}
					r := w.runProg("/usr/bin/env", append(args, "--", "/usr/bin/env")...)
					var got []string
					for _, kv := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
						// What omega-run adds: OMEGA_SANDBOX, and in rx TMPDIR
						// (sandbox/tmpdir_linux.go).
						if !strings.HasPrefix(kv, "OMEGA_SANDBOX") && kv != "TMPDIR=/tmp" {
							got = append(got, kv)
						}
					}
					if strings.Join(got, " ") != strings.Join(env, " ") || r.code != 0 {
						t.Errorf("the program's environment %q (exit %d, stderr %q), want %q", got, r.code, r.stderr, env)
					}
				})
			}
		}
	}
}

// TestLauncherOneP: the lent slot does what it is for — the launcher's Go
// runtime starts with one P (GODEBUG=schedtrace prints the launcher's
// gomaxprocs as sysmon starts), and a caller's own GOMAXPROCS is obeyed.
func TestLauncherOneP(t *testing.T) {
	if goInitStage() {
		t.Skip("a build without cgo's constructor (-tags omega_goinit) lends no slot")
	}
	w := newWorld(t, nobody)
	for _, mode := range []string{"sandbox", "rx", "rwx"} {
		for _, c := range []struct{ given, want string }{{"", "gomaxprocs=1 "}, {"GOMAXPROCS=2", "gomaxprocs=2 "}} {
			env := []string{"HOME=" + w.home, "PATH=/usr/bin:/bin", "GODEBUG=schedtrace=1000"}
			if c.given != "" {
				env = append(env, c.given)
			}
			args := append(append([]string{"-i"}, append(env, "ZZ_LAST=1")...), bin, "--mode", mode, "--", "/bin/true")
			// The runtime's monitor prints the trace when it first runs,
			// which a loaded machine may delay past the execve: retry
			// until a line comes, then check what it says.
			r := w.runProg("/usr/bin/env", args...)
			for i := 0; i < 20 && r.code == 0 && !strings.Contains(r.stderr, "gomaxprocs="); i++ {
				r = w.runProg("/usr/bin/env", args...)
			}
			if r.code != 0 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s with %q: exit %d, stderr %q; want the launcher's %q", mode, c.given, r.code, r.stderr, c.want)
			}
		}
	}
}
