package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// venvEnv is getenv as prog at path uses it: pip run from a virtualenv
// installs there, activated or not.
func venvEnv(prog *profiles.Program, path string, getenv func(string) string) func(string) string {
	venv := profiles.VenvOf(path)
	if prog.Name != "pip" || venv == "" || getenv("VIRTUAL_ENV") != "" {
		return getenv
	}
	return func(k string) string {
		if k == "VIRTUAL_ENV" {
			return venv
		}
		return getenv(k)
	}
}

// refusedState names, for the program's well-known tool, the state paths
// outside the writable set (which its writes there will fail on);
// getenv is the program's environment (venvEnv).
func refusedState(pol profiles.Policy, prog *profiles.Program, getenv func(string) string) []string {
	var out []string
	synced := map[string]bool{}
	for _, s := range prog.Sync {
		synced[filepath.Join(pol.Home, s.Home)] = true
	}
	for _, p := range prog.StatePaths(pol.Home, getenv) {
		// By its real path too: a link into the writable set (a
		// CLAUDE_CONFIG_DIR to ~/.claude) takes the writes.
		if pol.WritableRootOf(p) == "" && pol.WritableRootOf(realPath(p)) == "" && !synced[p] {
			out = append(out, p)
		}
	}
	return out
}

// stateWarning is the one line naming refused writes for prog (at path,
// or "" when unknown; args: its arguments, nil when unknown; wd: its
// working directory, or ""), or "".
func stateWarning(pol profiles.Policy, prog *profiles.Program, path string, args []string, wd string, getenv func(string) string) string {
	getenv = venvEnv(prog, path, getenv)
	getenv = goCacheEnv(prog, getenv, goEnvFileEnv(prog, getenv))
	getenv = npmEnv(prog, path, args, mavenEnv(prog, path, args, wd, pipConfEnv(prog, args, wd, getenv)))
	refused := refusedState(pol, prog, getenv)
	if len(refused) == 0 {
		return ""
	}
	msg := fmt.Sprintf("%s keeps state in %s, outside the writable set: writes there will be refused", prog.Name, strings.Join(refused, ", "))
	if hint := prog.HintFor(pol.Workspace(), pol.Home, refused, getenv); hint != "" {
		msg += "; " + hint
	}
	if dir := getenv("CLAUDE_CONFIG_DIR"); prog.Name == "claude" && slices.Contains(refused, dir) {
		msg += "; " + grantHint(dir)
	}
	if prog.Grant {
		for _, dir := range refused {
			msg += "; " + grantHint(dir)
		}
	}
	if prog.Name == "git" && pol.Mode == profiles.ModeSandbox && !pol.WritableGitConfig {
		// git config without --global fails on it with "Device or
		// resource busy", which does not say why.
		msg += "; a repository's .git/config and .git/hooks stay read-only: add --writable-git-config for git config without --global"
	}
	return msg
}

// grantHint fixes a tool's own directory outside the writable set, where
// it writes its login, sessions, settings and state (a CLAUDE_CONFIG_DIR
// of the user's, a second account's ~/.claude-work; ~/.codex): a grant of
// that directory, which --allow-write wants to exist.
func grantHint(dir string) string {
	flag := "--allow-write " + profiles.ShellWord(dir)
	if _, err := os.Stat(dir); err != nil {
		return "mkdir " + profiles.ShellWord(dir) + ", then add " + flag
	}
	return "add " + flag
}
