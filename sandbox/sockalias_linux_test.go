package sandbox

import "testing"

func TestUnescapeMount(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/plain", "/plain"},
		{`/a\040b`, "/a b"},
		{`/tab\011x\134y`, "/tab\tx\\y"},
		{`/short\04`, `/short\04`},
		{`/not\0x9`, `/not\0x9`},
	} {
		if got := unescapeMount(c.in); got != c.want {
			t.Errorf("unescapeMount(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
