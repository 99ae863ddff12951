package mountinfo

import "testing"

func TestUnescape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/plain", "/plain"},
		{`/a\040b`, "/a b"},
		{`/end\040`, "/end "}, // an escape at the very end
		{`/tab\011nl\012bs\134`, "/tab\tnl\nbs\\"},
		{`/lone\`, `/lone\`},
		{`/short\04`, `/short\04`},
		{`/not\089`, `/not\089`},
		{`/big\477`, `/big\477`}, // above a byte: not an escape
	} {
		if got := Unescape(c.in); got != c.want {
			t.Errorf("Unescape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
