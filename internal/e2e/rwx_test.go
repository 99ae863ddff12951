//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRWXSettings: rwx applies no confinement, so a setting that asks for
// some is refused (125, one line naming it and where it came from)
// instead of being ignored, and the program's environment never claims a
// restriction. Grants (--allow-write, --seccomp none) are accepted but
// still checked; a config file's settings give way to an rwx asked for
// on the command line or in the environment.
func TestRWXSettings(t *testing.T) {
	w := newWorld(t, nobody)
	file := filepath.Join(w.home, "a.txt")
	writeFile(t, file, "")
	restricting := filepath.Join(w.home, "restricting.toml")
	writeFile(t, restricting, "[sandbox]\nnet = \"none\"\nseccomp = \"strict\"\nhide = [\"/etc\"]\nfail_closed = true\n")
	contradicting := filepath.Join(w.home, "contradicting.toml")
	writeFile(t, contradicting, "[sandbox]\nmode = \"rwx\"\nnet = \"none\"\n")
	const show = `echo "$OMEGA_SANDBOX ${OMEGA_SANDBOX_NETWORK_DISABLED-unset}"`
	rwx := func(args ...string) []string { return append([]string{"--mode", "rwx"}, args...) }
	cases := []struct {
		name    string
		env     []string
		args    []string
		code    int
		message string // for 125: in the one line on stderr
	}{
		{"net none", nil, rwx("--net", "none"), 125, "--net none: --mode rwx applies no confinement"},
		{"net none from env", []string{"OMEGA_RUN_NET=none"}, rwx(), 125, "--net none (from OMEGA_RUN_NET): --mode rwx applies no confinement"},
		{"seccomp strict", nil, rwx("--seccomp", "strict"), 125, "--seccomp strict: --mode rwx"},
		{"seccomp typo", nil, rwx("--seccomp", "stirct"), 125, "--seccomp stirct"},
		{"fail-closed", nil, rwx("--fail-closed"), 125, "--fail-closed: --mode rwx"},
		{"hide", nil, rwx("--hide", "/etc"), 125, "--hide /etc: --mode rwx applies no confinement"},
		{"read-only", nil, rwx("--read-only", w.extra), 125, "--read-only " + w.extra + ": --mode rwx applies no confinement"},
		{"hostname", nil, rwx("--hostname", "h"), 125, "--hostname needs --mode sandbox"},
		{"memory", nil, rwx("--memory", "64M"), 125, "--memory"},
		{"missing allow-write", nil, rwx("--allow-write", "/no/such/dir"), 125, "/no/such/dir"},
		{"allow-write a file", nil, rwx("--allow-write", file), 125, "not a directory"},
		{"bad rlimit", nil, rwx("--rlimit", "nofile=lots"), 125, "--rlimit"},
		{"mode rwx and net none in one config", nil, []string{"--config", contradicting}, 125, "--net none (from config " + contradicting + ")"},
		{"grants", nil, rwx("--allow-write", w.extra, "--seccomp", "none", "--net", "host", "--writable-git-config"), 0, ""},
		{"config restrictions give way to --mode rwx", nil, rwx("--config", restricting), 0, ""},
		{"config restrictions give way to env rwx", []string{"OMEGA_SANDBOX_MODE=rwx"}, []string{"--config", restricting}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := w.runEnv(c.env, append(c.args, "--", "/bin/sh", "-c", show)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q)", r.code, c.code, r.stdout, r.stderr)
			}
			if c.code == 0 {
				if r.stdout != "rwx unset\n" || r.stderr != "" {
					t.Errorf("stdout %q, stderr %q; want %q and nothing", r.stdout, r.stderr, "rwx unset\n")
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.message) || strings.Contains(lines[0], "Landlock") {
				t.Errorf("stderr = %q, want one line 'omega-run: …%s…'", r.stderr, c.message)
			}
		})
	}
}
