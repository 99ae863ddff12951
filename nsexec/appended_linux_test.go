package nsexec

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestMarkRefuseAppended: Command has the init stage refuse an fd after
// its own only where this process's fd of that number would not reach
// the child anyway; a leaked one (no close-on-exec) there could not be
// told from an appended file.
func TestMarkRefuseAppended(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	const fd = 90
	s := &Spec{KeepFDs: 85, GoAhead: true} // the appended fd: 3 + 1 + 85 + 1
	for _, c := range []struct {
		flags int
		want  bool
	}{{-1, true}, {unix.O_CLOEXEC, true}, {0, false}} {
		unix.Close(fd)
		if c.flags >= 0 {
			if err := unix.Dup3(int(null.Fd()), fd, c.flags); err != nil {
				t.Fatal(err)
			}
		}
		markRefuseAppended(s)
		if s.RefuseAppended != c.want {
			t.Errorf("fd %d (open flags %d, -1 closed): RefuseAppended %v, want %v", fd, c.flags, s.RefuseAppended, c.want)
		}
	}
	unix.Close(fd)
}
