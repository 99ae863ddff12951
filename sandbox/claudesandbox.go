package sandbox

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/profiles"
)

// claudeManagedSettings is where an administrator's Claude Code settings
// live on Linux; they win over every other file (a test points it
// elsewhere).
var claudeManagedSettings = "/etc/claude-code/managed-settings.json"

// claudeSandboxWarning is the line saying that Claude Code's own sandbox
// is on, or "". It runs each Bash command in bubblewrap, which cannot
// start inside omega-run (no id maps, no mounts under Landlock: README),
// so every command would fail with "bwrap: setting up uid map". The files
// are read in Claude's order (managed, the project's local and shared
// settings, the user's); settings on the command line (--settings) are
// the user's choice and end the check, but for the managed ones, which
// win over them too.
func claudeSandboxWarning(pol profiles.Policy, args []string, getenv func(string) string, cwd string) string {
	if on, set := claudeSandboxSetting(claudeManagedSettings); set {
		if !on {
			return ""
		}
		return claudeSandboxOn(pol, claudeManagedSettings, ", which --settings cannot override", "only that file can turn it off")
	}
	if slices.ContainsFunc(args, func(a string) bool { return a == "--settings" || strings.HasPrefix(a, "--settings=") }) {
		return ""
	}
	userDir := getenv("CLAUDE_CONFIG_DIR")
	if !filepath.IsAbs(userDir) {
		userDir = pol.ClaudeDir()
	}
	var files []string
	if filepath.IsAbs(cwd) {
		files = append(files, filepath.Join(cwd, ".claude", "settings.local.json"), filepath.Join(cwd, ".claude", "settings.json"))
	}
	for _, f := range append(files, filepath.Join(userDir, "settings.json")) {
		on, set := claudeSandboxSetting(f)
		if !set {
			continue
		}
		if !on {
			return ""
		}
		return claudeSandboxOn(pol, f, "", `omega-run confines them: start claude --settings '{"sandbox":{"enabled":false}}'`)
	}
	return ""
}

// claudeSandboxOn is the warning for the sandbox turned on in file.
func claudeSandboxOn(pol profiles.Policy, file, note, fix string) string {
	return fmt.Sprintf(`Claude Code's own sandbox is on ("sandbox": {"enabled": true} in %s%s): it runs each command in bubblewrap, which cannot start inside omega-run, so each would fail with "bwrap: ..."; %s`,
		termsafe.String(shown(pol.Home, file)), note, fix)
}

// claudeSandboxSetting reads sandbox.enabled from one settings file; set
// is false where the file, or the key, is absent or unreadable.
func claudeSandboxSetting(path string) (on, set bool) {
	b, err := readRegular(path, false, maxSettings)
	if err != nil {
		return false, false
	}
	var s struct {
		Sandbox struct {
			Enabled *bool `json:"enabled"`
		} `json:"sandbox"`
	}
	if json.Unmarshal(b, &s) != nil || s.Sandbox.Enabled == nil {
		return false, false
	}
	return *s.Sandbox.Enabled, true
}
