package darwin

import "strings"

// ShellQuote quotes s as one POSIX shell word. Words made only of
// characters no shell treats specially stay bare so that explain output
// stays readable; everything else goes in single quotes, inside which
// only ' itself needs care: it ends the quote, adds \' and reopens.
func ShellQuote(s string) string {
	if s != "" && bareWord(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// bareWord reports whether s needs no quoting. A leading '=' is quoted
// because zsh expands =cmd to a path.
func bareWord(s string) bool {
	if s[0] == '=' {
		return false
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.ContainsRune("_@%+=:,./-", c)
		if !ok {
			return false
		}
	}
	return true
}

// ShellJoin quotes each word with ShellQuote and joins them with spaces,
// giving a line a POSIX shell splits back into exactly argv. A first
// word with '=' is quoted too: bare, "a=b cmd" would be an assignment
// and run cmd.
func ShellJoin(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = ShellQuote(a)
		if i == 0 && words[0] == a && strings.Contains(a, "=") {
			words[0] = "'" + a + "'"
		}
	}
	return strings.Join(words, " ")
}
