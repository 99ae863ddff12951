package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// explainJSON runs `omega-run explain --json args…` and decodes stdout.
func explainJSON(t *testing.T, args ...string) (sandbox.Explanation, int) {
	t.Helper()
	r, w, _ := os.Pipe()
	saved := os.Stdout
	os.Stdout = w
	code := run(append([]string{"omega-run", "explain", "--json"}, args...))
	os.Stdout = saved
	w.Close()
	out, _ := io.ReadAll(r)
	var e sandbox.Explanation
	if code == 0 {
		if err := json.Unmarshal(out, &e); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	return e, code
}

// TestPrecedence: flag > environment > config file > built-in default.
func TestPrecedence(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".omega"), 0o700)
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"),
		[]byte("[sandbox]\nmode = \"rx\"\nnet = \"none\"\nseccomp = \"strict\"\n"), 0o644)
	cases := []struct {
		name    string
		env     map[string]string
		args    []string
		mode    sandbox.Mode
		net     sandbox.Network
		seccomp string
		source  string // "key=source" expected among Sources
	}{
		{"file beats default", nil, nil, sandbox.ModeRX, sandbox.NetNone, "strict", "mode=config " + filepath.Join(home, ".omega", "config.toml")},
		{"env beats file", map[string]string{"OMEGA_SANDBOX_MODE": "sandbox"}, nil, sandbox.ModeSandbox, sandbox.NetNone, "strict", "mode=env"},
		{"flag beats env", map[string]string{"OMEGA_RUN_NET": "none"}, []string{"--net", "host"}, sandbox.ModeRX, sandbox.NetHost, "strict", "net=flag"},
		{"default without file", nil, []string{"--config", filepath.Join(home, "empty.toml")}, sandbox.ModeSandbox, sandbox.NetHost, "default", "seccomp=default"},
		// An empty variable is unset: it used to undo the file's settings.
		{"empty env is no setting", map[string]string{"OMEGA_RUN_SECCOMP": "", "OMEGA_RUN_NET": "", "OMEGA_SANDBOX_MODE": ""}, nil, sandbox.ModeRX, sandbox.NetNone, "strict", "seccomp=config " + filepath.Join(home, ".omega", "config.toml")},
		{"empty env is no default either", map[string]string{"OMEGA_RUN_NET": "", "OMEGA_SANDBOX_MODE": ""}, []string{"--config", filepath.Join(home, "empty.toml")}, sandbox.ModeSandbox, sandbox.NetHost, "default", "net=default"},
		{"file shared with a gateway", nil, []string{"--config", filepath.Join(home, "gw.toml")}, sandbox.ModeRX, sandbox.NetNone, "default", "net=config " + filepath.Join(home, "gw.toml")},
	}
	os.WriteFile(filepath.Join(home, "empty.toml"), nil, 0o644)
	os.WriteFile(filepath.Join(home, "gw.toml"), []byte("[gateway]\nport = 1\n[sandbox]\nmode = \"rx\"\nnet = \"none\"\n"), 0o644)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			e, code := explainJSON(t, c.args...)
			if code != 0 || e.Mode != c.mode || e.Network != c.net || e.Seccomp != c.seccomp {
				t.Errorf("exit %d: mode %s net %s seccomp %s; want %s %s %s", code, e.Mode, e.Network, e.Seccomp, c.mode, c.net, c.seccomp)
			}
			if !slices.Contains(e.Sources, c.source) {
				t.Errorf("sources %v lack %q", e.Sources, c.source)
			}
		})
	}
}

// TestConfigErrors: each bad config exits 125 (message checked in config).
func TestConfigErrors(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, doc := range []string{"[sandbox]\nmode = \"x\"\n", "[sandbox]\nnope = 1\n", "[sandbox\n", "[sandbox]\nfail_closed = 1\n"} {
		p := filepath.Join(home, "c.toml")
		os.WriteFile(p, []byte(doc), 0o644)
		if _, code := explainJSON(t, "--config", p); code != 125 {
			t.Errorf("%q: exit %d, want 125", doc, code)
		}
	}
	if _, code := explainJSON(t, "--config", filepath.Join(home, "missing.toml")); code != 125 {
		t.Errorf("missing --config: exit %d, want 125", code)
	}
}

// TestExplainRefusedState: explain names the tool state the policy
// refuses, and --allow-write takes it off the list.
func TestExplainRefusedState(t *testing.T) {
	home, err := os.MkdirTemp("/var/tmp", "omega-refused-") // not below /tmp, which is writable
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	t.Setenv("HOME", home)
	e, _ := explainJSON(t)
	if !slices.ContainsFunc(e.RefusedState, func(s string) bool { return strings.HasPrefix(s, "git keeps state") }) {
		t.Errorf("refused state %q lacks git", e.RefusedState)
	}
	e, _ = explainJSON(t, "--allow-write", home)
	if len(e.RefusedState) != 0 {
		t.Errorf("with home writable nothing is refused, got %q", e.RefusedState)
	}
}

// TestExplainMasks: explain lists what sandbox mode hides and keeps
// read-only, as the launch would.
func TestExplainMasks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.MkdirAll(filepath.Join(home, ".omega", "workspace", "p", ".git", "hooks"), 0o700)
	os.WriteFile(filepath.Join(home, ".omega", "workspace", "p", ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"), nil, 0o600)
	e, code := explainJSON(t, "--mode", "sandbox")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if e.Namespaces == nil {
		t.Skip("no user namespaces here: nothing is masked")
	}
	if !slices.Contains(e.Hidden, filepath.Join(home, ".ssh")) {
		t.Errorf("hidden %q: want ~/.ssh", e.Hidden)
	}
	if want := filepath.Join(home, ".omega", "tmp"); e.PrivateTmp != want {
		t.Errorf("private_tmp %q, want %s", e.PrivateTmp, want)
	}
	for _, want := range []string{filepath.Join(home, ".omega", "config.toml"), filepath.Join(home, ".omega", "workspace", "p", ".git", "hooks")} {
		if !slices.Contains(e.ReadOnly, want) {
			t.Errorf("read_only %q: want %s", e.ReadOnly, want)
		}
	}
}

// TestErrorNamesSource: an error about a value from the environment or
// the config file says so; the user may not know the value is set there.
func TestErrorNamesSource(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	config := filepath.Join(home, "c.toml")
	os.WriteFile(config, []byte("[sandbox]\nallow_write = [\"/no/such/dir\"]\n"), 0o644)
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--config", config}, "omega-run: --allow-write /no/such/dir: no such file or directory (mkdir -p /no/such/dir creates it) (from config " + config + ")"},
		{map[string]string{"OMEGA_RUN_ALLOW_WRITE": "/no/such/env"}, nil, "--allow-write /no/such/env: no such file or directory (mkdir -p /no/such/env creates it) (from OMEGA_RUN_ALLOW_WRITE)"},
		{nil, []string{"--allow-write", "/no/such/flag"}, "--allow-write /no/such/flag: no such file or directory (mkdir -p /no/such/flag creates it)\n"},
		{map[string]string{"OMEGA_SANDBOX_MODE": "zz"}, nil, `--mode: unknown mode "zz" (want one of sandbox, rx, rwx) (from OMEGA_SANDBOX_MODE)`},
		{map[string]string{"OMEGA_RUN_SECCOMP": "/no/such.json"}, nil, "(from OMEGA_RUN_SECCOMP)"},
		// A cgroup limit is named by its flag, as the others are, not by
		// the package that parses it.
		{nil, []string{"--memory", "10X"}, `omega-run: --memory "10X": unknown suffix "X" (want bytes with an optional K, M, G or T suffix, powers of 1024, e.g. 512M)` + "\n"},
		{map[string]string{"OMEGA_RUN_PIDS": "0"}, nil, `omega-run: --pids "0": want a whole number of at least 1 (from OMEGA_RUN_PIDS)` + "\n"},
		{nil, []string{"--cpus", "0.001"}, `omega-run: --cpus "0.001": below the minimum 0.01`},
		// A --seccomp file is named once, with no "read profile: open".
		{nil, []string{"--seccomp", home + "/none.json"}, "omega-run: --seccomp " + home + "/none.json: no such file or directory\n"},
		{nil, []string{"--seccomp", config}, "omega-run: --seccomp " + config + ":1:2: invalid character 's' looking for beginning of value\n"},
		// rwx names the cgroup limit it refuses, and where it came from.
		{map[string]string{"OMEGA_RUN_PIDS": "10"}, []string{"--mode", "rwx"}, "omega-run: --pids 10: --mode rwx runs the program with nothing in between to remove its cgroup afterwards (drop it, or use --mode sandbox or rx) (from OMEGA_RUN_PIDS)\n"},
		{nil, []string{"--mode", "rwx", "--cpus", "1", "--memory", "1G"}, "omega-run: --memory 1G: --mode rwx runs"},
		// Said once, where the setting is named.
		{map[string]string{"OMEGA_RUN_NET": "none"}, []string{"--mode", "rwx"}, "omega-run: --net none (from OMEGA_RUN_NET): --mode rwx applies no confinement, so nothing would enforce it (drop it, or use --mode sandbox or rx)\n"},
		// A value that reads like a source is still followed by its own.
		{map[string]string{"OMEGA_RUN_ALLOW_WRITE": "/no (from x"}, nil, "--allow-write /no (from x: no such file or directory (mkdir -p '/no (from x' creates it) (from OMEGA_RUN_ALLOW_WRITE)"},
		// PATH's colons, where the variable takes commas: the hint made a
		// directory named with the colon.
		{map[string]string{"OMEGA_RUN_ALLOW_WRITE": home + ":" + home}, nil, "--allow-write " + home + ":" + home + ": no such file or directory (one path each: repeat --allow-write, or separate them with commas, not colons, in OMEGA_RUN_ALLOW_WRITE=" + home + "," + home + ") (from OMEGA_RUN_ALLOW_WRITE)"},
	}
	for _, c := range cases {
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		for _, sub := range [][]string{nil, {"explain"}} {
			// false, not true: where a refusal is broken, rwx execs the
			// program in place of this test binary, which must then fail.
			args := append(append(slices.Clone(sub), c.args...), "--", "false")
			_, stderr, code := runCaptured(t, args...)
			if code != 125 || !strings.Contains(stderr, c.want) {
				t.Errorf("%v %q: exit %d, stderr %q; want 125 and %q", c.env, args, code, stderr, c.want)
			}
		}
		for k := range c.env {
			os.Unsetenv(k)
		}
	}
}

func TestFlagsGiven(t *testing.T) {
	app := newApp()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"omega-run", "--mode", "rx", "--", "sh", "--net=host"}, []string{"mode"}},
		{[]string{"omega-run", "--mode=rx", "curl", "--user", "a:b"}, []string{"mode"}},
		{[]string{"omega-run", "--fail-closed", "sh", "-c", "x", "--seccomp=none"}, []string{"fail-closed"}},
		{[]string{"omega-run", "--data-dir", "curl", "--net", "none", "x"}, []string{"data-dir", "net"}},
		{[]string{"omega-run", "--net", "none", "explain", "--os", "darwin", "--mode", "rx", "prog", "--hide=x"}, []string{"net", "os", "mode"}},
		{[]string{"omega-run", "explain", "--json", "--seccomp", "strict"}, []string{"json", "seccomp"}},
	}
	for _, c := range cases {
		got := flagsGiven(c.args, app)
		want := map[string]bool{}
		for _, n := range c.want {
			want[n] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", c.args, got, want)
		}
	}
}

// TestConfigKeptAgainstProgramArguments: a program's own argument named
// like a run flag does not displace the config file's setting.
func TestConfigKeptAgainstProgramArguments(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	config := filepath.Join(home, "c.toml")
	os.WriteFile(config, []byte("[sandbox]\nnet = \"none\"\nseccomp = \"strict\"\n"), 0o644)
	e, code := explainJSON(t, "--config", config, "/bin/sh", "-c", "x", "--net=host", "--seccomp", "none")
	if code != 0 || e.Network != sandbox.NetNone || e.Seccomp != "strict" {
		t.Errorf("exit %d, network %q, seccomp %q; want none and strict from the config", code, e.Network, e.Seccomp)
	}
}

// TestEmptyEnvKeepsFileSettings: an empty OMEGA_RUN_FAIL_CLOSED or
// OMEGA_RUN_HIDE is no setting; it used to turn off the file's
// fail_closed and drop its hide list without a word.
func TestEmptyEnvKeepsFileSettings(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	hidden := filepath.Join(home, "secret")
	os.MkdirAll(filepath.Join(home, ".omega"), 0o700)
	os.Mkdir(hidden, 0o700)
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"),
		[]byte("[sandbox]\nfail_closed = true\nhide = [\""+hidden+"\"]\n"), 0o644)
	t.Setenv("OMEGA_RUN_FAIL_CLOSED", "")
	t.Setenv("OMEGA_RUN_HIDE", "")
	e, code := explainJSON(t)
	file := "config " + filepath.Join(home, ".omega", "config.toml")
	if code != 0 || !slices.Contains(e.Sources, "fail-closed="+file) || !slices.Contains(e.Sources, "hide="+file) {
		t.Errorf("exit %d, sources %v: want fail-closed and hide from the file", code, e.Sources)
	}
}

// TestDataDirNamedOnce: a data dir the launch cannot create is named
// once, not again in "mkdir DIR: …" (explain creates nothing).
func TestDataDirNamedOnce(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	_, stderr, code := runCaptured(t, "--data-dir", "/proc/omega-none", "--", "true")
	want := "omega-run: cannot create /proc/omega-none: no such file or directory (choose another data dir with --data-dir or OMEGA_DATA_DIR)\n"
	if code != 125 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 125 and %q", code, stderr, want)
	}
}
