package sandbox

import "testing"

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
}
