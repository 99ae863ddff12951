//go:build linux

package e2e

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCgroupMoveOut: clone3's CLONE_INTO_CGROUP starts a child in any
// cgroup v2 group whose cgroup.procs the user may write (root: every
// group; an unprivileged user: the groups systemd delegates to it). It
// writes no file, so neither Landlock nor the read-only /sys stops it, and
// the child leaves the limits, the IP and device filters and the
// accounting of the caller's group (a unit's MemoryMax=, IPAddressDeny=).
// omega-run runs in group a of a group the user owns; the probe starts a
// child in its sibling b. rwx is the control that the move works.
func TestCgroupMoveOut(t *testing.T) {
	mnt := cgroup2Mount(t)
	for _, u := range users {
		for _, mode := range []string{"rwx", "rx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				parent := delegatedCgroup(t, mnt, u)
				a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
				fd, err := os.Open(a)
				if err != nil {
					t.Fatal(err)
				}
				defer fd.Close()
				ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
				defer cancel()
				c := w.cmd(ctx, "--mode", mode, "--", probe, "into-cgroup", b)
				if c.SysProcAttr == nil {
					c.SysProcAttr = &syscall.SysProcAttr{}
				}
				c.SysProcAttr.UseCgroupFD, c.SysProcAttr.CgroupFD = true, int(fd.Fd())
				out, err := c.CombinedOutput()
				// The control shows the child in b; confined, the clone
				// itself must fail (a cgroup namespace would show b by
				// another name).
				inB := strings.Contains(string(out), "0::"+strings.TrimPrefix(b, mnt)+"\n")
				if mode == "rwx" && !inB {
					t.Errorf("control: child not started in the sibling cgroup; probe: %s", out)
				}
				if mode != "rwx" && err == nil {
					t.Errorf("child started in another cgroup; probe: %s", out)
				}
			})
		}
	}
}

// cgroup2Mount is where the cgroup v2 hierarchy is mounted (skips without).
func cgroup2Mount(t *testing.T) string {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		for i, x := range fields {
			if x == "-" && i+1 < len(fields) && fields[i+1] == "cgroup2" {
				return fields[4]
			}
		}
	}
	t.Skip("no cgroup v2 hierarchy mounted")
	return ""
}

// delegatedCgroup makes a group with children a and b below the cgroup v2
// root, owned by u as systemd delegates one, removed at the end.
func delegatedCgroup(t *testing.T, mnt string, u user) string {
	t.Helper()
	parent, err := os.MkdirTemp(mnt, "omega-e2e-")
	if err != nil {
		t.Skipf("cannot make a cgroup: %v", err)
	}
	t.Cleanup(func() {
		for _, d := range []string{"a", "b", ""} {
			os.Remove(filepath.Join(parent, d))
		}
	})
	for _, d := range []string{parent, filepath.Join(parent, "a"), filepath.Join(parent, "b")} {
		if err := os.Mkdir(d, 0o755); err != nil && d != parent {
			t.Fatal(err)
		}
		for _, f := range []string{"", "cgroup.procs", "cgroup.threads", "cgroup.subtree_control"} {
			if err := os.Chown(filepath.Join(d, f), u.uid, u.gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	return parent
}
