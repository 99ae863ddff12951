package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestNetNoneWarningOldLandlock: without a network namespace only
// Landlock's TCP rules (ABI 4) stand for --net none. Below ABI 4, or with
// no Landlock at all, TCP is open too, and the warning must not say that
// Landlock denies it (before, it did at every ABI).
func TestNetNoneWarningOldLandlock(t *testing.T) {
	pol := profiles.Policy{Mode: ModeRX, Net: profiles.NetNone, Seccomp: profiles.SeccompDefault}
	for _, abi := range []int{0, 1, 3, 4, 7} {
		w := netNoneWarning(pol, false, abi)
		denies := strings.Contains(w, "Landlock denies TCP")
		open := strings.Contains(w, "TCP, UDP")
		if want := abi >= 4; denies != want || open == want {
			t.Errorf("ABI %d: says Landlock denies TCP: %v, says TCP is open: %v; want %v, %v: %q", abi, denies, open, want, !want, w)
		}
	}
	if w := netNoneWarning(pol, true, 0); w != "" {
		t.Errorf("with a network namespace: %q, want no warning", w)
	}
}
