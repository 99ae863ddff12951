package sandbox

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// shellGrants is found for permissions.allow, keeping only the rules that
// let Claude Code run any command without asking: Bash itself, or Bash
// with a shell, an interpreter or a command runner first. The rest
// (Bash(npm test:*), Read) is what Claude writes when a person answers
// "don't ask again", and naming each would be noise.
type shellGrants struct{ found }

func (g *shellGrants) UnmarshalJSON(b []byte) error {
	if len(b) > maxDecodedValue {
		return g.found.UnmarshalJSON(b) // kept whole: errs towards naming it
	}
	var rules []any
	if json.Unmarshal(b, &rules) != nil {
		return nil
	}
	for _, r := range rules {
		if s, ok := r.(string); ok && anyCommand(s) {
			g.found = append(g.found, s)
		}
	}
	return nil
}

// runners run what follows them: a grant of one is a grant of everything.
var runners = []string{
	"sh", "bash", "zsh", "dash", "fish", "ksh", "csh", "tcsh", "busybox",
	"env", "eval", "exec", "command", "builtin", "source", ".", "xargs", "nohup", "setsid",
	"timeout", "nice", "ionice", "stdbuf", "time", "watch", "script", "sudo", "doas", "su",
	"python", "python2", "python3", "node", "deno", "bun", "perl", "ruby", "php", "lua",
	"osascript", "npx", "bunx", "pnpx", "uvx", "pipx", "*",
}

// subRunners run any command given after one of their subcommands:
// npm exec, docker run (as root, on the host), git -c alias.x='!sh'.
var subRunners = map[string][]string{
	"npm": {"exec", "x"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"},
	"uv": {"run", "tool"}, "poetry": {"run"}, "pipenv": {"run"}, "bundle": {"exec"},
	"docker": {"run", "exec"}, "podman": {"run", "exec"}, "kubectl": {"exec", "run"},
	"nix": {"run", "shell", "develop"}, "git": {"-c"},
}

// grantsSub reports whether what follows a subRunner's name in a rule
// reaches one of subs: any arguments (git:*), a wildcard that could
// begin one (npm e*), or one of them.
func grantsSub(args, subs []string) bool {
	if len(args) == 0 {
		return false // the command alone, no arguments
	}
	lit, _, wild := strings.Cut(args[0], "*")
	return slices.ContainsFunc(subs, func(s string) bool { return s == args[0] || wild && strings.HasPrefix(s, lit) })
}

// anyCommand reports whether a permission rule lets any command run: "Bash",
// "Bash()", "Bash(*)", "Bash(:*)", or Bash with a runner first
// ("Bash(sh -c:*)", "Bash(/usr/bin/python3:*)"), however the first word is
// spelt (see commandName).
func anyCommand(rule string) bool {
	rule = strings.TrimSpace(rule)
	spec, ok := strings.CutPrefix(rule, "Bash")
	if !ok {
		return false
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return true
	}
	spec, ok = strings.CutPrefix(spec, "(")
	if !ok {
		return false // another tool's name (BashOutput)
	}
	spec = strings.TrimSpace(strings.TrimSuffix(spec, ")"))
	words := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ':' || r == '\t' })
	if len(words) == 0 {
		return true
	}
	name, i, ok := commandName(words)
	if !ok {
		return false // only variables set: no command
	}
	if lit, _, wild := strings.Cut(name, "*"); wild {
		// A wildcard matches any text, so "s*" or "/usr/bin/p*" grants every
		// runner its literal start could begin.
		lit = lit[strings.LastIndexByte(lit, '/')+1:]
		begins := func(r string) bool { return strings.HasPrefix(r, lit) }
		// It also matches spaces: "npm*" is "npm exec sh" too.
		return slices.ContainsFunc(runners, begins) || slices.ContainsFunc(slices.Collect(maps.Keys(subRunners)), begins)
	}
	base := strings.TrimRight(filepath.Base(name), "0123456789.")
	if subs, ok := subRunners[base]; ok {
		return grantsSub(words[i+1:], subs)
	}
	return slices.Contains(runners, base) || slices.Contains(runners, name)
}

// commandName is the command a rule's words run as the shell reads them: past
// the variables set before it (FOO=1 sh), without quotes or backslashes
// ('sh', \sh), since Claude Code matches the rule against the command's text
// and bash runs those as sh; i is its word's index. ok is false where only
// variables are set.
func commandName(words []string) (name string, i int, ok bool) {
	for i, w := range words {
		w = unquote(w)
		if !isAssignment(w) {
			return w, i, true
		}
	}
	return "", 0, false
}

// unquote drops a word's quotes and backslashes, as the shell reads it.
func unquote(w string) string { return strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(w) }

// isAssignment reports whether a word sets a shell variable (NAME=value).
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	})
}
