package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestUsernsWarningNamesItsFix: the fallback's warning gives the sysctl
// that lifts the cause it names. Debian's unprivileged_userns_clone=0 was
// told to raise user.max_user_namespaces, which changes nothing there.
func TestUsernsWarningNamesItsFix(t *testing.T) {
	t.Setenv("OMEGA_SANDBOX", "") // not the nested wording
	for _, tc := range []struct {
		cause, want, notWant string
	}{
		{usernsCloneOff, "sysctl -w kernel.unprivileged_userns_clone=1", "max_user_namespaces"},
		{"user.max_user_namespaces is 0", "sysctl -w user.max_user_namespaces=15000", "unprivileged_userns_clone"},
	} {
		got := usernsWarning(tc.cause, profiles.Policy{Mode: profiles.ModeSandbox})
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
			t.Errorf("cause %q: warning %q: want %q in it and no %q", tc.cause, got, tc.want, tc.notWant)
		}
	}
}
