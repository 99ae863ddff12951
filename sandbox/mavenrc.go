package sandbox

import (
	"strings"
)

// mavenRCFiles are the shell files mvn's script (and the Maven wrapper's)
// sources before anything else, unless MAVEN_SKIP_RC is set, to set
// MAVEN_OPTS and the like; ~ is $HOME.
var mavenRCFiles = []string{"/usr/local/etc/mavenrc", "/etc/mavenrc", "~/.mavenrc"}

// mavenRCEnv is getenv with the variables the mavenrc files set, read in
// their order, as far as they are plain assignments (NAME=value, export
// NAME=value; value unquoted, '…' or "…", with $NAME and ${NAME}). Other
// lines are passed over, and an assignment counts whatever condition it
// stands in.
func mavenRCEnv(getenv func(string) string) func(string) string {
	if getenv("MAVEN_SKIP_RC") != "" {
		return getenv
	}
	set := map[string]string{}
	get := func(k string) string {
		if v, ok := set[k]; ok {
			return v
		}
		return getenv(k)
	}
	for _, f := range mavenRCFiles {
		if rest, ok := strings.CutPrefix(f, "~"); ok {
			if getenv("HOME") == "" {
				continue
			}
			f = getenv("HOME") + rest
		}
		data, err := readRegular(f, false, mavenSettingsMax)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if name, v, ok := shellAssignment(line, get); ok {
				set[name] = v
			}
		}
	}
	if len(set) == 0 {
		return getenv
	}
	return get
}

// shellAssignment reads line as a shell assignment of the plain forms
// mavenRCEnv takes, with variables from get; ok is false for any other
// line, a command substitution or another expansion in it.
func shellAssignment(line string, get func(string) string) (name, value string, ok bool) {
	s := strings.TrimLeft(line, " \t")
	if rest, found := strings.CutPrefix(s, "export"); found && strings.HasPrefix(rest, " ") {
		s = strings.TrimLeft(rest, " \t")
	}
	eq := strings.IndexByte(s, '=')
	if eq < 1 || !isShellName(s[:eq]) {
		return "", "", false
	}
	value, rest, ok := shellWord(s[eq+1:], get)
	rest = strings.TrimLeft(rest, " \t")
	if !ok || rest != "" && rest[0] != ';' && rest[0] != '#' {
		return "", "", false // a command after it: the variable is its alone
	}
	return s[:eq], value, true
}

// shellWord is the word at the start of s as the shell expands it in an
// assignment (no splitting), and what follows it.
func shellWord(s string, get func(string) string) (word, rest string, ok bool) {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'' && c != '\'':
			b.WriteByte(c)
		case c == '\'' && quote != '"' || c == '"' && quote != '\'':
			if quote == 0 {
				quote = c
			} else {
				quote = 0
			}
		case c == '\\' && i+1 < len(s) && (quote == 0 || strings.IndexByte("$`\"\\", s[i+1]) >= 0):
			i++
			b.WriteByte(s[i])
		case c == '`':
			return "", "", false
		case c == '$':
			n, v, good := shellExpand(s[i+1:], get)
			if !good {
				return "", "", false
			}
			b.WriteString(v)
			i += n
		case quote == 0 && strings.IndexByte(" \t;&|<>()", c) >= 0:
			return b.String(), s[i:], true
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), "", quote == 0
}

// shellExpand expands the $NAME or ${NAME} at the start of s (after its
// $): how many bytes it took and the value; a $ before anything else is
// itself. ok is false for $( and ${…} with more than a name.
func shellExpand(s string, get func(string) string) (n int, v string, ok bool) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 0 || !isShellName(s[1:end]) {
			return 0, "", false
		}
		return end + 1, get(s[1:end]), true
	}
	if strings.HasPrefix(s, "(") {
		return 0, "", false
	}
	n = 0
	for n < len(s) && isShellName(s[:n+1]) {
		n++
	}
	if n == 0 {
		return 0, "$", true
	}
	return n, get(s[:n]), true
}

// isShellName tells whether s is a shell variable's name.
func isShellName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
