// Package termsafe escapes what a terminal would act on in a line that
// omega-run prints: messages name paths a confined program chose (a git
// dir it made), and raw, their escape sequences could erase or forge a
// warning, or write the user's clipboard (OSC 52). nsexec/cinit_errors.c
// escapes the C init stage's lines the same way.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String escapes C0 and C1 control characters, DEL, the bidirectional
// formatting characters (which reorder what a terminal shows: a path
// read backwards) and the zero-width ones (which hide: two names that
// look alike) as \uXXXX, and bytes that are not UTF-8 as \xNN (a lone
// 0x9b is CSI to a terminal in 8-bit mode). Other text, UTF-8 included,
// is kept.
func String(s string) string {
	if !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || invisible(r)
}

// invisible: the bidi controls ALM, LRM, RLM, LRE…RLO, LRI…PDI, and the
// zero-width ZWSP, ZWNJ, ZWJ, WJ and BOM (ZWNBSP). ZWNJ and ZWJ shape
// Persian, Indic and emoji text, escaped too: a warning names a path
// exactly.
func invisible(r rune) bool {
	return r == 0x061c || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || r == 0x2060 ||
		(r >= 0x2066 && r <= 0x2069) || r == 0xfeff
}

// TextReset makes a terminal show text plainly again, from where a
// program that wrote to it last left it, for omega-run's lines after the
// run (the warnings about what it made that runs later): SI and ESC ( B
// back to ASCII from the line-drawing set, SGR 0 out of conceal and
// invisible colours, DECAWM on (off, each line's end overwrote its last
// column), the scroll region back to the whole screen, inside DECSC and
// DECRC (setting it homes the cursor): one of a line or two made the
// warnings scroll away within it; and the default colours back to the
// terminal's own (OSC 110, 111): black on black, SGR 0 kept them
// invisible. A theme a shell set with OSC 10 and 11 is reset with them.
// A Linux console takes its default colours from ESC [ 8 ] (the current
// ones made the default: ESC [ 30;40 m before it made SGR 0 black on
// black), so white on black, its own, is stored again before a second
// SGR 0; other terminals ignore ESC [ 8 ] and end at SGR 0 as before.
// nsexec/cinit_internal.h has a copy.
const TextReset = "\x0f\x1b(B\x1b[0m\x1b[37;40m\x1b[8]\x1b[0m\x1b[?7h\x1b7\x1b[r\x1b8\x1b]110\x1b\\\x1b]111\x1b\\"
