package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCloneFailureSaysWhy: ENOSPC from clone is the user namespace limit,
// not a full disk, and the warning says so before its sysctl fix.
func TestCloneFailureSaysWhy(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("clone: %w", unix.ENOSPC), "creating them failed with ENOSPC: the kernel's limit user.max_user_namespaces is 0 or used up"},
		{unix.EUSERS, "creating them failed with EUSERS: user namespaces nest at most 32 deep"},
		{unix.EIO, ""},
	} {
		if got := cloneFailure(c.err); got != c.want && !strings.HasPrefix(got, c.want+":") {
			t.Errorf("cloneFailure(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
