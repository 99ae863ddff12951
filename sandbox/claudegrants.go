package sandbox

import (
	"encoding/json"
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

// anyCommand reports whether a permission rule lets any command run: "Bash",
// "Bash()", "Bash(*)", "Bash(:*)", or Bash with a runner first
// ("Bash(sh -c:*)", "Bash(/usr/bin/python3:*)").
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
	first := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ':' || r == '\t' })
	if len(first) == 0 {
		return true
	}
	name := strings.TrimRight(filepath.Base(first[0]), "0123456789.")
	return slices.Contains(runners, name) || slices.Contains(runners, first[0]) || strings.HasPrefix(first[0], "*")
}
