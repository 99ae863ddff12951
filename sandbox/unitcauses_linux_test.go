package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestFilterRefusesNamespacesUnfiltered: with no filter in front of it,
// the probe's clone is refused by the kernel (EINVAL), not taken for a
// filter's EPERM, and creates nothing.
func TestFilterRefusesNamespacesUnfiltered(t *testing.T) {
	if seccompFiltered() {
		t.Skip("a seccomp filter is installed around the test")
	}
	if filterRefusesNamespaces() {
		t.Fatal("no filter is installed, yet the probe says one refuses namespaces")
	}
	// EINVAL pins the flags: a change that let the clone through would
	// fork this process.
	if c, c3 := probeClones(); c != unix.EINVAL || c3 != unix.EINVAL {
		t.Errorf("clone: %v, clone3: %v; want EINVAL for both", c, c3)
	}
}
