package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// TestExplainShortByDefault: explain's text names the seccomp profile in
// a summary and only the settings not at their defaults; --full prints
// every rule and every setting. --json stays complete either way.
func TestExplainShortByDefault(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	empty := filepath.Join(home, "empty.toml")
	os.WriteFile(empty, nil, 0o644)
	base := []string{"explain", "--config", empty, "--net", "host", "--mode", "rx"}
	cases := []struct {
		name          string
		args          []string
		want, notWant []string
	}{
		{"default", nil,
			[]string{
				"seccomp:     default (built in); default action allow;",
				"argument checks: ",
				"set-id bits on chmod/creat/mknod/open",
				"TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE on ioctl",
				"(--full lists every rule)",
				"settings:    mode=flag\n             net=flag\n             all others at their defaults (--full lists them)\n",
			},
			[]string{"with argument checks (first match decides)", "otherwise allow", "=default"}},
		{"full", []string{"--full"},
			[]string{
				"seccomp:     default\n             seccomp profile: default (built in)\n",
				"with argument checks (first match decides)",
				"settings:    allow-socket=default\n",
				"             mode=flag\n",
			},
			[]string{"--full lists", "all others at their defaults"}},
		{"json", []string{"--json"},
			[]string{`"seccomp_rules": "seccomp profile: default (built in)\n`, `"mode=flag"`, `"seccomp=default"`},
			[]string{"--full lists"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCaptured(t, append(append(base, c.args...), "--", "true")...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(stdout, w) {
					t.Errorf("output has %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestExplainText renders a fixed explanation as explain prints it, short
// and with --full, against testdata/explain_*.golden (`go test . -update`
// rewrites them: check the diff).
func TestExplainText(t *testing.T) {
	e := sandbox.Explanation{
		Mode: sandbox.ModeSandbox, OS: "linux", DataDir: "/home/u/.omega", Program: "/usr/bin/true",
		Writable: []string{"/home/u/.omega", "/tmp", "/dev/shm"}, PrivateTmp: "/home/u/.omega/tmp",
		Workdir: "/home/u/src", WorkdirFix: "--allow-write .", Network: sandbox.NetHost,
		Namespaces: []string{"user", "mount", "pid", "ipc", "uts"},
		Hidden:     []string{"/home/u/.ssh"}, ReadOnly: []string{"/home/u/.omega/config.toml"},
		Seccomp: "default",
		SeccompRules: "seccomp profile: default (built in)\ndefault action: allow\n\nfail with EPERM (1 syscall):\n  bpf\n\n" +
			"with argument checks (first match decides):\n  ioctl\n    fail with EPERM if arg1 & 0xffffffff == 0x5412  (TIOCSTI, added to every profile)\n    otherwise allow\n",
		SeccompSummary: "default (built in); default action allow; fail with EPERM (bpf)\nargument checks: TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE on ioctl\n",
		Env:            []string{"OMEGA_SANDBOX=sandbox"},
		Sources:        []string{"allow-write=flag", "hide=default", "mode=env", "net=default (config /home/u/.omega/config.toml not applied in rwx)", "seccomp=default"},
		RefusedState:   []string{"npm keeps state in /home/u/.npm, outside the writable set"},
	}
	e.Landlock.ABI = 7
	e.Landlock.ReadExec, e.Landlock.Devices = []string{"/"}, []string{"/dev/null"}
	allDefault := e
	allDefault.Sources = []string{"hide=default", "seccomp=default"}
	noSummary := e
	noSummary.Seccomp, noSummary.SeccompRules, noSummary.SeccompSummary = "none", "", ""
	for name, c := range map[string]struct {
		e    sandbox.Explanation
		full bool
	}{
		"short": {e, false}, "full": {e, true}, "all_default": {allDefault, false}, "seccomp_none": {noSummary, false},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			printExplanation(&b, c.e, c.full)
			file := filepath.Join("testdata", "explain_"+name+".golden")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v; run `go test . -run TestExplainText -update` to create it", err)
			}
			if b.String() != string(want) {
				t.Errorf("%s differs; if the change is intended, run `go test . -run TestExplainText -update`\n--- got:\n%s--- want:\n%s", file, b.String(), want)
			}
		})
	}
}
