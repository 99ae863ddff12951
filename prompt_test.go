package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
)

// TestPromptMode: prompt describes the mode a launch would run in: flag >
// environment > config file > default, with --config as launches take it.
func TestPromptMode(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".omega"), 0o700)
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"), []byte("[sandbox]\nmode = \"rx\"\n"), 0o644)
	other := filepath.Join(home, "other.toml")
	os.WriteFile(other, []byte("[gateway]\nport = 1\n[sandbox]\nmode = \"rwx\"\n"), 0o644)
	cases := []struct {
		name string
		env  map[string]string
		args []string
		mode sandbox.Mode
	}{
		{"config file", nil, nil, sandbox.ModeRX},
		{"--config", nil, []string{"--config", other}, sandbox.ModeRWX},
		{"OMEGA_RUN_CONFIG", map[string]string{"OMEGA_RUN_CONFIG": other}, nil, sandbox.ModeRWX},
		{"--config before the command", nil, []string{"--config", other, "prompt"}, sandbox.ModeRWX},
		{"env beats file", map[string]string{"OMEGA_SANDBOX_MODE": "sandbox"}, nil, sandbox.ModeSandbox},
		{"flag beats env", map[string]string{"OMEGA_SANDBOX_MODE": "rwx"}, []string{"--mode", "rx"}, sandbox.ModeRX},
		{"flag before the command", nil, []string{"--mode", "sandbox", "prompt"}, sandbox.ModeSandbox},
	}
	ws := filepath.Join(home, ".omega", "workspace")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			args := append([]string{"prompt"}, c.args...)
			if len(c.args) > 0 && c.args[len(c.args)-1] == "prompt" {
				args = c.args
			}
			want, err := sandbox.PromptConstraint(c.mode, ws)
			if err != nil {
				t.Fatal(err)
			}
			if got, stderr, code := runCaptured(t, args...); code != 0 || got != want {
				t.Errorf("exit %d (%s):\n%s\nwant (mode %s):\n%s", code, stderr, got, c.mode, want)
			}
		})
	}
}

// TestPromptPolicy: prompt describes what the launch adds to its mode,
// from the config file and from flags, so that a model is not told it
// cannot write where it can.
func TestPromptPolicy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	src := filepath.Join(home, "src")
	os.MkdirAll(filepath.Join(home, ".omega"), 0o700)
	os.MkdirAll(src, 0o700)
	os.WriteFile(filepath.Join(home, ".omega", "config.toml"), []byte("[sandbox]\nallow_write = [\""+src+"\"]\nnet = \"none\"\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"config file", []string{"prompt"}, []string{"Writes also succeed in: " + src + ".", "There is no network access"}},
		{"flags", []string{"prompt", "--config", filepath.Join(home, "none.toml"), "--allow-write", home, "--mode", "rx"},
			[]string{"mode: rx", "Writes also succeed in: " + home + "."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "flags" {
				os.WriteFile(filepath.Join(home, "none.toml"), nil, 0o644)
			}
			got, stderr, code := runCaptured(t, c.args...)
			for _, w := range c.want {
				if code != 0 || !strings.Contains(got, w) {
					t.Errorf("exit %d (%s): %q lacks %q", code, stderr, got, w)
				}
			}
		})
	}
}

// TestPromptWorkspaceOutside: a --workspace the launch would not let the
// program write is refused, as the text would tell the model its writes
// there succeed (in sandbox mode the host's /tmp is not the program's); in
// the writable set, or in rwx, it is taken.
func TestPromptWorkspaceOutside(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	proj := filepath.Join(home, "proj")
	os.MkdirAll(proj, 0o700)
	inTmp := profiles.Within(proj, "/tmp")
	for _, c := range []struct {
		args []string
		out  string // the workspace refused, or ""
	}{
		{[]string{"prompt", "--workspace", "/usr"}, "/usr"},
		{[]string{"prompt", "--mode", "rx", "--workspace", "/usr"}, "/usr"},
		{[]string{"prompt", "--workspace", proj}, map[bool]string{true: proj}[inTmp]},
		{[]string{"prompt", "--workspace", proj, "--allow-write", proj}, ""},
		{[]string{"prompt", "--workspace", filepath.Join(home, ".omega", "workspace", "p")}, ""},
		{[]string{"prompt", "--mode", "rwx", "--workspace", "/usr"}, ""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got, stderr, code := runCaptured(t, c.args...)
			switch {
			case c.out == "" && code != 0:
				t.Errorf("exit %d, stderr %q; want the text", code, stderr)
			case c.out != "" && (code != 125 || got != "" || !strings.Contains(stderr, "--allow-write "+c.out)):
				t.Errorf("exit %d, stdout %q, stderr %q; want 125, nothing, and a line naming --allow-write %s", code, got, stderr, c.out)
			}
		})
	}
}
