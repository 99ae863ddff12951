package termsafe

import (
	"fmt"
	"unicode/utf8"
)

// Encoded makes a line omega-run has already encoded, text String escaped
// or JSON, as safe as String's output, where its encoder left something:
// encoding/json escapes C0 controls only, so DEL, C1 controls (U+009B is
// CSI) and bidi characters went out raw, and a byte that is not UTF-8
// made a JSON line invalid. Each such rune becomes \uXXXX and each such
// byte \ufffd (what encoding/json writes for one), which inside a JSON
// string decode to the same text and keep the line valid. Newlines and
// a CR before one (a raw terminal's line end) are kept; other C0
// controls, which no encoder of omega-run's leaves, are escaped too.
func Encoded(p []byte) []byte {
	if !needsEncoding(p) {
		return p
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case r == '\n', r == '\r' && i+1 < len(p) && p[i+1] == '\n':
			out = append(out, byte(r))
		case unsafe(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, p[i:i+n]...)
		}
		i += n
	}
	return out
}

// needsEncoding is a quick look for a byte Encoded may change: a C0
// control other than a newline or CR, or any byte past ASCII.
func needsEncoding(p []byte) bool {
	for _, c := range p {
		if c < 0x20 && c != '\n' && c != '\r' || c >= 0x7f {
			return true
		}
	}
	return false
}
