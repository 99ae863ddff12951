package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/nsexec"
)

// TestOwnWorkdirNote: a working directory that is a tree sandbox mode
// replaces gets one note, naming whose directory the program starts in;
// one below it, or elsewhere, none.
func TestOwnWorkdirNote(t *testing.T) {
	full := &nsexec.MountPlan{TmpFrom: "/h/.omega/tmp", FreshRun: true}
	for _, c := range []struct {
		plan *nsexec.MountPlan
		wd   string
		want string // "" for no note
	}{
		{full, "/tmp", "the sandbox's own /tmp (kept in /h/.omega/tmp), not the host's"},
		{full, "/dev/shm", "the sandbox's own /dev/shm, not the host's"},
		{full, "/run", "the sandbox's own /run,"},
		{full, "/proc", ""}, // the host's where a fresh one is refused (warned)
		{full, "/tmp/x", ""},
		{full, "/dev/shm/x", ""},
		{full, "/h/proj", ""},
		{&nsexec.MountPlan{}, "/tmp", ""}, // the host's /tmp
		{&nsexec.MountPlan{}, "/run", ""},
	} {
		got := ownWorkdirNote(c.plan, c.wd, "/h/.omega/tmp")
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.wd, got, c.want)
		}
	}
}
