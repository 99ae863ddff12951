package landlock

import (
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func benchPolicy(b *testing.B, mode profiles.Mode) profiles.Policy {
	b.Helper()
	p, err := profiles.New(profiles.Policy{
		Mode:       mode,
		Home:       "/home/dev",
		AllowWrite: []string{"/home/dev/src/project", "/var/tmp/build"},
	})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkFromPolicy measures turning the policy into Landlock rules
// (pure data, in the parent).
func BenchmarkFromPolicy(b *testing.B) {
	p := benchPolicy(b, profiles.ModeSandbox)
	b.ReportAllocs()
	for b.Loop() {
		_ = FromPolicy(p)
	}
}
