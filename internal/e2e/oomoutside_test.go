//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOOMKillOutsideLimit: an OOM kill in the program's group that never
// reached its own --memory (the machine out of memory, simulated by a
// 192M cgroup v1 parent omega-run runs in) is said as that; one at the
// group's limit (64M, well below the parent's) still says the limit was
// reached. Both read "it reached its memory limit" before.
func TestOOMKillOutsideLimit(t *testing.T) {
	parent, err := os.MkdirTemp("/sys/fs/cgroup/memory", "omega-e2e-oomparent-")
	if err != nil {
		// cgroup v2 puts the group below a leaf omega-run cannot share
		// with its children; there the kernel's counter is memory.events
		// oom, which the sandbox package's test reads too.
		t.Skipf("no cgroup v1 memory hierarchy to make a parent group in: %v", err)
	}
	defer func() {
		for end := time.Now().Add(10 * time.Second); os.Remove(parent) != nil && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	}()
	for _, f := range []string{"memory.limit_in_bytes", "memory.memsw.limit_in_bytes"} {
		if err := os.WriteFile(filepath.Join(parent, f), []byte("192M"), 0); err != nil && f == "memory.limit_in_bytes" {
			t.Fatal(err)
		}
	}
	enter := []string{"sh", "-c", fmt.Sprintf(`echo $$ > %s/cgroup.procs && exec "$@"`, parent), "sh"}
	hog := []string{"/usr/bin/python3", "-c", "a = bytearray(300 << 20); print('survived')"}
	for _, mode := range confinedModes {
		for _, tt := range []struct{ memory, want string }{
			{"512M", "it stayed below its memory limit (memory=512M): the machine, or a cgroup above it, ran out of memory"},
			{"64M", "it reached its memory limit (memory=64M)"},
		} {
			w := newWorld(t, rootUser)
			r := w.under(enter, append([]string{"--mode", mode, "--memory", tt.memory, "--"}, hog...)...)
			if r.code != 137 || !strings.Contains(r.stderr, "OOM killer killed a process in the program's cgroup: "+tt.want) {
				t.Errorf("%s, --memory %s in a 192M parent: exit %d, stderr %q; want 137 and %q", mode, tt.memory, r.code, r.stderr, tt.want)
			}
		}
	}
}
