package sandbox

import "testing"

func TestUnescapeOctal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`/home/a\040b`, "/home/a b"},
		{`/x\011`, "/x\t"},
		{`/x\134y`, `/x\y`},
		{`/x\04`, `/x\04`}, // cut short: left as it is
		{`/x\089`, `/x\089`},
		{"/plain", "/plain"},
	} {
		if got := unescapeOctal(c.in); got != c.want {
			t.Errorf("unescapeOctal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
