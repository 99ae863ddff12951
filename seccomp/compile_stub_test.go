//go:build !linux || !cgo

package seccomp

import (
	"errors"
	"testing"
)

// TestStub: without libseccomp, "none" still works and every real
// profile fails loudly instead of running the program unfiltered.
func TestStub(t *testing.T) {
	if Enabled || Version() != "" {
		t.Errorf("Enabled = %v, Version() = %q in a build without libseccomp", Enabled, Version())
	}
	if prog, _, err := Compile(nil); prog != nil || err != nil {
		t.Errorf("Compile(none) = %v, %v", prog, err)
	}
	for _, name := range []string{"default", "strict"} {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Compile(p); !errors.Is(err, ErrNotEnabled) {
			t.Errorf("Compile(%s) = %v, want ErrNotEnabled", name, err)
		}
	}
}
