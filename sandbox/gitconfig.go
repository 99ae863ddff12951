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

// parseGitRedirects reads a git config's text for gitRedirects as git's
// parser (config.c: parse_file, get_base_var, get_value, parse_value)
// does: sections and keys case-insensitive, values optionally quoted,
// comments after # or ; outside quotes, a backslash-newline continuing a
// value but not a comment. What git would refuse (a bad line) is skipped
// to the line's end. Paths are left as written.
func parseGitRedirects(text string) gitRedirects {
	var r gitRedirects
	s := strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff")
	section := ""
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case isConfigSpace(c):
			i++
		case c == '#' || c == ';':
			i = lineEnd(s, i)
		case c == '[':
			section, i = configSection(s, i+1)
		case isAlpha(c):
			var key, value string
			var ok bool
			key, value, ok, i = configEntry(s, i)
			// git keeps values as C strings: a NUL ends one.
			if j := strings.IndexByte(value, 0); j >= 0 {
				value = value[:j]
			}
			switch {
			case !ok || value == "":
			case section == "core" && key == "hookspath":
				r.hooks = append(r.hooks, value)
			case (section == "include" || strings.HasPrefix(section, "includeif.")) && key == "path":
				r.includes = append(r.includes, value)
			}
		default:
			i = lineEnd(s, i)
		}
	}
	return r
}

// configSection reads a section header from s[i:], just after its "[":
// the name lowercased, with a quoted subsection as git names it
// (includeif.gitdir:~/x/), and where the header ends. A bad header is
// "" up to the line's end.
func configSection(s string, i int) (string, int) {
	var b strings.Builder
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == ']':
			return b.String(), i + 1
		case isConfigSpace(c):
			return configSubsection(s, i, b.String())
		case isKeyChar(c) || c == '.':
			b.WriteByte(lower(c))
		default:
			return "", lineEnd(s, i)
		}
	}
	return "", i
}

// configSubsection reads the quoted subsection of section's header from
// s[i:] (at the space before it) up to the closing "]".
func configSubsection(s string, i int, section string) (string, int) {
	for i < len(s) && isConfigSpace(s[i]) {
		i++
	}
	if i == len(s) || s[i] != '"' {
		return "", lineEnd(s, i)
	}
	var b strings.Builder
	for i++; i < len(s) && s[i] != '\n'; i++ {
		c := s[i]
		if c == '"' {
			if i+1 < len(s) && s[i+1] == ']' {
				return section + "." + b.String(), i + 2
			}
			break
		}
		if c == '\\' && i+1 < len(s) && s[i+1] != '\n' {
			i++
			c = s[i]
		}
		b.WriteByte(c)
	}
	return "", lineEnd(s, i)
}

// configEntry reads "key = value" from s[i:]: the key lowercased, the
// value (parseConfigValue), whether the entry is good, and where it ends.
func configEntry(s string, i int) (key, value string, ok bool, end int) {
	start := i
	for i < len(s) && isKeyChar(s[i]) {
		i++
	}
	key = strings.ToLower(s[start:i])
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch {
	case i == len(s) || s[i] == '\n':
		return key, "", true, i // a boolean: no value
	case s[i] != '=':
		return "", "", false, lineEnd(s, i)
	}
	value, ok, end = parseConfigValue(s, i+1)
	return key, value, ok, end
}

// parseConfigValue reads a value from s[i:] as git's parse_value does,
// up to and past its newline: quotes removed, escapes \n \t \b \\ \"
// replaced, a backslash-newline continuing it, spaces outside quotes
// trimmed at the ends, a comment (outside quotes) skipped to the line's
// end — a backslash there continues nothing. ok is false where git
// refuses it (an unknown escape, an unclosed quote).
func parseConfigValue(s string, i int) (value string, ok bool, end int) {
	var b strings.Builder
	quote, comment, spaces := false, false, 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			return b.String(), !quote, i + 1
		case comment:
			continue
		case isConfigSpace(c) && !quote:
			if b.Len() > 0 {
				spaces++
			}
			continue
		case (c == ';' || c == '#') && !quote:
			comment = true
			continue
		}
		b.WriteString(strings.Repeat(" ", spaces))
		spaces = 0
		switch {
		case c == '"':
			quote = !quote
		case c != '\\':
			b.WriteByte(c)
		case i+1 == len(s) || s[i+1] == '\n':
			i++ // a continuation
		default:
			i++
			e, known := configEscapes[s[i]]
			if !known {
				return "", false, lineEnd(s, i)
			}
			b.WriteByte(e)
		}
	}
	return b.String(), !quote, i
}

// configEscapes are the escapes git's parse_value knows.
var configEscapes = map[byte]byte{'n': '\n', 't': '\t', 'b': '\b', '\\': '\\', '"': '"'}

// lineEnd is the index just past the newline that ends s[i:]'s line.
func lineEnd(s string, i int) int {
	if n := strings.IndexByte(s[i:], '\n'); n >= 0 {
		return i + n + 1
	}
	return len(s)
}

// isConfigSpace is git's isspace: space, tab, newline, carriage return.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isKeyChar(c byte) bool { return isAlpha(c) || (c >= '0' && c <= '9') || c == '-' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
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
