package sandbox

import (
	"path/filepath"
	"strings"
)

// gitRedirects are the places a git config sends git to for code it
// runs, beyond the git dir itself: core.hooksPath (husky sets .husky/_,
// in the worktree) and the files include.path and includeIf.*.path pull
// in, whose own core.fsmonitor or aliases git then runs.
type gitRedirects struct {
	hooks    []string
	includes []string
}

// parseGitRedirects reads a git config's text for gitRedirects, as git's
// parser does for these keys: sections and keys case-insensitive,
// values optionally quoted, comments after # or ; outside quotes. Paths
// are left as written.
func parseGitRedirects(text string) gitRedirects {
	var r gitRedirects
	section := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\\\n", ""), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			header, rest, _ := strings.Cut(line[1:], "]")
			name, _, _ := strings.Cut(strings.TrimSpace(header), " ")
			section = strings.ToLower(strings.TrimSpace(name))
			line = strings.TrimSpace(rest) // [core] hooksPath = x is valid
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), gitValue(value)
		switch {
		case value == "":
		case section == "core" && key == "hookspath":
			r.hooks = append(r.hooks, value)
		case (section == "include" || section == "includeif") && key == "path":
			r.includes = append(r.includes, value)
		}
	}
	return r
}

// gitValue is a config value without quotes, escapes and comment.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			if e, ok := map[byte]byte{'n': '\n', 't': '\t', 'b': '\b'}[v[i]]; ok {
				b.WriteByte(e)
			} else {
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// gitPath resolves a path from a git config as git does: ~/ is home,
// a relative path is relative to base.
func gitPath(p, home, base string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[1:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}
