package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestClaudeSandboxWarning: Claude Code's own sandbox, turned on in its
// settings, runs every Bash command in bubblewrap, which cannot start
// inside omega-run: each failed with "bwrap: setting up uid map" and the
// launch said nothing. Said once, with the flag that turns it off for the
// session; not when it is off where Claude looks first, or the command
// line gives settings of its own.
func TestClaudeSandboxWarning(t *testing.T) {
	on, off := `{"sandbox": {"enabled": true}}`, `{"sandbox": {"enabled": false}}`
	for _, c := range []struct {
		name                 string
		user, project, local string // settings.json contents; "" absent
		managed              string // the administrator's managed-settings.json
		configDir            bool   // the user's in a CLAUDE_CONFIG_DIR
		args                 []string
		want                 bool
	}{
		{name: "on in ~/.claude", user: on, want: true},
		{name: "off", user: off},
		{name: "absent"},
		{name: "sandbox without enabled", user: `{"sandbox": {"autoAllowBashIfSandboxed": true}}`},
		{name: "on in the project", project: on, want: true},
		{name: "the project's local settings win", user: on, local: off},
		{name: "the project's shared settings win over the user's", user: off, project: on, want: true},
		{name: "on in a CLAUDE_CONFIG_DIR", user: on, configDir: true, want: true},
		{name: "--settings given", user: on, args: []string{"--settings", off}},
		{name: "--settings= given", user: on, args: []string{"--settings=" + off}},
		{name: "not JSON", user: `{"sandbox": `},
		{name: "managed settings win", user: on, managed: off},
		{name: "on in managed settings", managed: on, want: true},
		// Managed settings win over --settings too: the flag cannot help.
		{name: "on in managed settings, --settings given", managed: on, args: []string{"--settings", off}, want: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			saved := claudeManagedSettings
			claudeManagedSettings = filepath.Join(t.TempDir(), "managed", "managed-settings.json")
			t.Cleanup(func() { claudeManagedSettings = saved })
			pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega")}
			userDir, env := filepath.Join(home, ".claude"), []string{}
			if c.configDir {
				userDir = filepath.Join(home, ".claude-work")
				env = append(env, "CLAUDE_CONFIG_DIR="+userDir)
			}
			put := func(dir, name, content string) {
				if content == "" {
					return
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			put(userDir, "settings.json", c.user)
			put(filepath.Dir(claudeManagedSettings), filepath.Base(claudeManagedSettings), c.managed)
			put(filepath.Join(proj, ".claude"), "settings.json", c.project)
			put(filepath.Join(proj, ".claude"), "settings.local.json", c.local)
			w := claudeSandboxWarning(pol, c.args, Process{ClearEnv: true, SetEnv: env}.getenv, proj)
			if got := w != ""; got != c.want {
				t.Fatalf("warning %q, want one: %v", w, c.want)
			}
			flag := `--settings '{"sandbox":{"enabled":false}}'`
			if c.managed == on {
				flag = "which --settings cannot override" // the flag would not help
			}
			if c.want && (!strings.Contains(w, "bubblewrap") || !strings.Contains(w, flag)) {
				t.Errorf("warning %q: want it to name bubblewrap and %q", w, flag)
			}
		})
	}
}
