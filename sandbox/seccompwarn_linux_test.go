package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestSeccompNoneNetNoneSaysVsock: without a filter nothing refuses
// vsock, which a network namespace does not separate; sandbox mode's
// --seccomp none warning says so with --net none, and only then.
func TestSeccompNoneNetNoneSaysVsock(t *testing.T) {
	for _, net := range []profiles.Network{profiles.NetNone, profiles.NetHost} {
		pol := profiles.Policy{Mode: ModeSandbox, Seccomp: profiles.SeccompNone, Net: net}
		_, warnings, err := compileSeccomp(pol, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(strings.Join(warnings, "\n"), "vsock")
		if want := net == profiles.NetNone; said != want {
			t.Errorf("--net %s: warning names vsock: %v, want %v (%q)", net, said, want, warnings)
		}
	}
}
