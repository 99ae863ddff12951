package darwin

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/omega-run/omega-run/internal/termsafe"
)

// ShellQuote quotes s as one POSIX shell word. Words made only of
// characters no shell treats specially stay bare so that explain output
// stays readable; everything else goes in single quotes, inside which
// only ' itself needs care: it ends the quote, adds \' and reopens.
//
// A word with a byte a terminal would act on (what termsafe escapes:
// controls, newlines too, DEL, C1 and bidi characters, bytes that are not
// UTF-8) is ANSI-C quoted instead, $'…' with each such byte as \xHH: the
// line goes to a terminal (explain), and a path a confined program or a
// repository named must not set its title or forge a line there. zsh,
// bash and ksh, and POSIX since 2024, read it back as the same bytes.
func ShellQuote(s string) string {
	if s != "" && bareWord(s) {
		return s
	}
	if termsafe.String(s) != s {
		return ansiCQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ansiCQuote writes s as $'…': \\ and \' for the two characters that
// need it there, \xHH for each byte of a rune termsafe would escape.
func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case termsafe.String(s[i:i+n]) != s[i:i+n]:
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
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
