package rlimits

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, every error wraps ErrInvalid, and what it
// accepts renders (String) to a spec that parses back to the same limit.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"nofile=1024", "nofile=1024:4096", "nofile=1024:", "nofile=:4096", "NOFILE = 10 ",
		"cpu=10:unlimited", "core=infinity:-1", "as=512M", "as=1G:2g", "fsize=4K:1MiB",
		"stack=8M:unlimited", "as=18446744073709551615", "as=20000000T", "nofile=1:2:3",
		"as=1MB", "nofile=4096:1024", "=", ":", "as=1\u212a", "stac\u212a=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		got, err := Parse([]string{spec})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q): error %v does not wrap ErrInvalid", spec, err)
			}
			return
		}
		l := got[0]
		if _, known := resources[l.Name]; !known {
			t.Fatalf("Parse(%q): name %q is not a resource", spec, l.Name)
		}
		if !l.KeepSoft && !l.KeepHard && l.Soft > l.Hard {
			t.Fatalf("Parse(%q): soft %d above hard %d", spec, l.Soft, l.Hard)
		}
		if strings.ContainsFunc(spec, func(r rune) bool { return r > 0x7f }) {
			t.Fatalf("Parse(%q) accepted non-ASCII input: %+v", spec, l)
		}
		again, err := Parse([]string{l.String()})
		if err != nil || again[0] != l {
			t.Fatalf("Parse(%q) = %+v renders as %q, which parses to %+v, %v", spec, l, l.String(), again, err)
		}
	})
}
