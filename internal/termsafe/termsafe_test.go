package termsafe

import "testing"

func TestString(t *testing.T) {
	for _, c := range Vectors {
		if got := String(c.In); got != c.Want {
			t.Errorf("String(%q) = %q, want %q", c.In, got, c.Want)
		}
	}
}
