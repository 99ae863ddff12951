//go:build !linux || !cgo

package seccomp

import (
	"errors"
	"runtime"
	"testing"
)

// TestStub: without libseccomp, "none" still works, the built-in
// profiles compile to their programs made at build time (on Linux), and
// every other profile fails loudly instead of running the program
// unfiltered.
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
		prog, _, err := Compile(p)
		switch {
		case runtime.GOOS != "linux" && !errors.Is(err, ErrNotEnabled):
			t.Errorf("Compile(%s) = %v, want ErrNotEnabled", name, err)
		case runtime.GOOS == "linux" && (err != nil || prog.Len() == 0 || !Precompiled(name)):
			t.Errorf("Compile(%s) = %v, %v; want the program compiled at build time", name, prog, err)
		}
	}
	custom, err := Parse("custom.json", []byte(`{"defaultAction": "SCMP_ACT_ALLOW"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Compile(custom); !errors.Is(err, ErrNotEnabled) {
		t.Errorf("Compile(custom) = %v, want ErrNotEnabled", err)
	}
	if Precompiled("custom.json") || Precompiled("none") {
		t.Error("Precompiled is true for a name that is no built-in profile")
	}
}
