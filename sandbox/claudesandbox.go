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
// live on Linux; they win over every other file.
const claudeManagedSettings = "/etc/claude-code/managed-settings.json"

// claudeSandboxWarning is the line saying that Claude Code's own sandbox
// is on, or "". It runs each Bash command in bubblewrap, which cannot
// start inside omega-run (no id maps, no mounts under Landlock: README),
// so every command would fail with "bwrap: setting up uid map". The files
// are read in Claude's order (managed, the project's local and shared
// settings, the user's); settings on the command line (--settings) are
// the user's choice and end the check.
func claudeSandboxWarning(pol profiles.Policy, args []string, getenv func(string) string, cwd string) string {
	if slices.ContainsFunc(args, func(a string) bool { return a == "--settings" || strings.HasPrefix(a, "--settings=") }) {
		return ""
	}
	userDir := getenv("CLAUDE_CONFIG_DIR")
	if !filepath.IsAbs(userDir) {
		userDir = pol.ClaudeDir()
	}
	files := []string{claudeManagedSettings}
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
		return fmt.Sprintf(`Claude Code's own sandbox is on ("sandbox": {"enabled": true} in %s): it runs each command in bubblewrap, which cannot start inside omega-run, so each would fail with "bwrap: ..."; omega-run confines them: start claude --settings '{"sandbox":{"enabled":false}}'`,
			termsafe.String(shown(pol.Home, f)))
	}
	return ""
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
