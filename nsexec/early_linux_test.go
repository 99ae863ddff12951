//go:build linux && cgo && !omega_goinit

package nsexec

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestEarlyWanted: the CLI's constructor starts a sandbox init stage for
// a command line that will most likely run one, from argv, the
// environment and the config file alone. A wrong yes costs a start that
// Go kills again, a wrong no the early start; neither changes what runs.
func TestEarlyWanted(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	os.MkdirAll(filepath.Join(home, ".omega"), 0o755)
	cfg := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	rx, none := cfg("rx.toml", "[sandbox]\nmode = \"rx\"\n"), cfg("none.toml", "[sandbox]\n  net='none' # off\n")
	ok := cfg("ok.toml", "[sandbox]\nmode = \"sandbox\"\nnet = \"host\"\nallow_write = [\"/srv\"]\npty = false\n")
	pty := cfg("pty.toml", "[sandbox]\npty = true\n")
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"), []byte("[sandbox]\nmode = \"rwx\"\n"), 0o644)
	env := []string{"HOME=/nonexistent", "PATH=/bin"}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		argv []string
		env  []string
		want bool
	}{
		{"program", []string{"omega-run", "--", "claude"}, env, true},
		{"mode sandbox", []string{"omega-run", "--mode", "sandbox", "--", "x"}, env, true},
		{"mode=sandbox", []string{"omega-run", "--mode=sandbox", "-allow-write", "/tmp", "--", "x"}, env, true},
		{"no program", []string{"omega-run", "--"}, env, false},
		{"no separator", []string{"omega-run", "claude"}, env, false},
		{"mode rx", []string{"omega-run", "--mode", "rx", "--", "x"}, env, false},
		{"-mode=rwx", []string{"omega-run", "-mode=rwx", "--", "x"}, env, false},
		{"net none", []string{"omega-run", "--net", "none", "--", "x"}, env, false},
		{"net host", []string{"omega-run", "--net=host", "--", "x"}, env, true},
		{"workdir", []string{"omega-run", "--workdir", "/tmp", "--", "x"}, env, false},
		{"memory", []string{"omega-run", "--memory=1G", "--", "x"}, env, false},
		{"pids", []string{"omega-run", "--pids", "9", "--", "x"}, env, false},
		{"pty", []string{"omega-run", "--pty", "--", "x"}, env, false},
		{"subcommand", []string{"omega-run", "explain", "--", "x"}, env, false},
		{"after the separator", []string{"omega-run", "--", "x", "--mode", "rx"}, env, true},
		{"env mode", []string{"omega-run", "--", "x"}, append(env, "OMEGA_SANDBOX_MODE=rx"), false},
		{"env net", []string{"omega-run", "--", "x"}, append(env, "OMEGA_RUN_NET=none"), false},
		{"env cgroup", []string{"omega-run", "--", "x"}, append(env, "OMEGA_RUN_CPUS=1"), false},
		{"env pty", []string{"omega-run", "--", "x"}, append(env, "OMEGA_RUN_PTY=true"), false},
		{"duplicate env", []string{"omega-run", "--", "x"}, append(env, "PATH=/usr/bin"), false},
		{"config rx", []string{"omega-run", "--config", rx, "--", "x"}, env, false},
		{"config net none", []string{"omega-run", "--", "x"}, append(env, "OMEGA_RUN_CONFIG="+none), false},
		{"config fits", []string{"omega-run", "--config", ok, "--", "x"}, env, true},
		{"config pty", []string{"omega-run", "--config", pty, "--", "x"}, env, false},
		{"config unreadable", []string{"omega-run", "--config", dir, "--", "x"}, env, false},
		// Not read (it would take what the CLI reads), and not waited on.
		{"config a fifo", []string{"omega-run", "--config", fifo, "--", "x"}, env, false},
		{"default config rwx", []string{"omega-run", "--", "x"}, []string{"HOME=" + home}, false},
		{"data dir without config", []string{"omega-run", "--data-dir", dir, "--", "x"}, []string{"HOME=" + home}, true},
		{"flags decide", []string{"omega-run", "--mode", "sandbox", "--net", "host", "--", "x"}, []string{"HOME=" + home}, true},
	}
	for _, c := range cases {
		if got := earlyWanted(c.argv, c.env); got != c.want {
			t.Errorf("%s: %q %q: %v, want %v", c.name, c.argv, c.env, got, c.want)
		}
	}
}

// TestEarlyWantedOpensNoSpecialFile: the constructor looks at a config
// path through O_PATH and opens only a regular file that is no kernel
// file, as the launcher's openRegular does: a program in rx mode may leave
// a link to a device there (opening /dev/watchdog arms it, a tape
// rewinds), or to /proc/kmsg (reading it takes the kernel's messages).
// A FIFO shows the open: inotify reports it, not an O_PATH one.
func TestEarlyWantedOpensNoSpecialFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skip("inotify:", err)
	}
	defer syscall.Close(in)
	if _, err := syscall.InotifyAddWatch(in, fifo, syscall.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=/nonexistent", "PATH=/bin"}
	if earlyWanted([]string{"omega-run", "--config", fifo, "--", "x"}, env) {
		t.Error("config a FIFO: wanted")
	}
	if n, _ := syscall.Read(in, make([]byte, 4096)); n > 0 {
		t.Error("the constructor opened the FIFO named as config file")
	}
	// A kernel file, though regular: not read (and says no).
	if earlyWanted([]string{"omega-run", "--config", "/proc/self/status", "--", "x"}, env) {
		t.Error("config /proc/self/status: read, and wanted")
	}
}

// TestEarlyStartNoArgs: a process run with no argv at all (execve with
// an empty argv, which kernels before 5.18 pass on as argc 0) must not
// crash in the constructor; it starts nothing and lends no slot.
func TestEarlyStartNoArgs(t *testing.T) {
	if earlyStart(nil, []string{"HOME=/nonexistent", "X=1"}) {
		t.Error("argc 0: lent an environment slot")
	}
}

// TestCtorArgs checks that the constructors get this process's argv and
// environment as the Go runtime did: from glibc, and from the walk back
// from environ that musl builds rely on (cinit_args.c), run here on glibc
// too so that every test run checks it.
func TestCtorArgs(t *testing.T) {
	got := map[string]ctorResult{"constructor": ctorGot, "walk": walkGot}
	for name, r := range got {
		if !r.ok {
			t.Fatalf("%s: no argv", name)
		}
		if !slices.Equal(r.argv, os.Args) {
			t.Errorf("%s: argv %q, want %q", name, r.argv, os.Args)
		}
		if !slices.Equal(r.env, initialEnv) {
			t.Errorf("%s: envp has %d entries, the process started with %d", name, len(r.env), len(initialEnv))
		}
	}
}

type ctorResult struct {
	argv, env []string
	ok        bool
}

func result(argv, env []string, ok bool) ctorResult { return ctorResult{argv, env, ok} }

// Package initialisation runs on the main thread, before any test could
// change environ: where the walk works.
var (
	initialEnv = os.Environ()
	ctorGot    = result(ctorArgs(false))
	walkGot    = result(ctorArgs(true))
)
