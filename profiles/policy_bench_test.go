package profiles

import "testing"

// BenchmarkNew measures building the policy from the CLI's input, which
// every confined launch does once in the parent.
func BenchmarkNew(b *testing.B) {
	in := Policy{
		Mode:       ModeSandbox,
		Home:       "/home/dev",
		AllowWrite: []string{"/home/dev/src/project", "/home/dev/.cache/go-build", "/var/tmp/build"},
		Net:        NetHost,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(in); err != nil {
			b.Fatal(err)
		}
	}
}
