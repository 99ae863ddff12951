//go:build linux

package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// TestFallbackLandlockOlderABIs runs each mode on kernels of Landlock ABI
// 1 to 6, as the probe's landlock-abi simulates them: it answers the
// version query with N and refuses, as such a kernel would, a ruleset
// with rights, network rules, scopes or landlock_restrict_self flags that
// ABI does not know (before, it let them through to this kernel, which
// took them: a launcher asking for too much passed). Each launch must run
// with the write outside the writable set stopped, name what the ABI
// lacks, and refuse with --fail-closed (1 to 5). --log-denials (ABI 7's flags) and
// --net none (ABI 4's TCP rules) must be left out below their ABI, not
// fail the launch.
func TestFallbackLandlockOlderABIs(t *testing.T) {
	for abi := 1; abi <= 6; abi++ {
		for _, mode := range confinedModes {
			t.Run(strconv.Itoa(abi)+"/"+mode, func(t *testing.T) {
				w := newWorld(t, nobody)
				fake := []string{probe, "landlock-abi", strconv.Itoa(abi)}
				lacks := "Landlock ABI " + strconv.Itoa(abi) + " lacks"
				if abi == 6 { // all but ABI 7's logging
					lacks = "--log-denials: Landlock ABI 6 cannot log denials"
				}
				r := w.under(fake, "--mode", mode, "--log-denials", "--net", "none", "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
				if r.stdout != "ran\n" || !strings.Contains(r.stderr, lacks) {
					t.Errorf("exit %d, stdout %q, stderr %q; want the program run and %q", r.code, r.stdout, r.stderr, lacks)
				}
				if w.sentinel() != "original" {
					t.Errorf("the write outside the writable set went through at ABI %d", abi)
				}
				if abi == 6 {
					return // logging is no confinement: ABI 6 lacks nothing for --fail-closed
				}
				r = w.under(fake, "--fail-closed", "--mode", mode, "--", "/bin/echo", "ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed") {
					t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
