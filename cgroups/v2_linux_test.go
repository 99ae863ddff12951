//go:build linux

package cgroups

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestV2PlacementRoot exercises the cgroup v2 code on whatever cgroup2
// mount this host has: /sys/fs/cgroup on a unified host, the controller-less
// /sys/fs/cgroup/unified on a hybrid one (so no limits there, but the same
// create / CLONE_INTO_CGROUP / kill / remove path). The real v2 limits are
// tested by the other Root tests on unified hosts.
func TestV2PlacementRoot(t *testing.T) {
	if testing.Short() || os.Geteuid() != 0 {
		t.Skip("requires root")
	}
	root := ""
	for _, r := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		var st unix.Statfs_t
		if unix.Statfs(r, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC {
			root = r
			break
		}
	}
	if root == "" {
		t.Skip("no cgroup2 mount")
	}
	if _, err := planV2(root, Limits{}); err != nil {
		t.Skipf("no writable cgroup v2 parent: %v", err)
	}
	name, err := groupName("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := newV2(root, name, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g := &Group{name: name, b: b}
	t.Cleanup(func() { deleteAndCheck(t, g) })
	if g.Version() != 2 {
		t.Errorf("Version() = %d", g.Version())
	}

	// CLONE_INTO_CGROUP: the child starts in the group.
	cmd := command(t, "sh", "-c", "read _; grep '^0::' /proc/self/cgroup; exec sleep 60")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	release, _ := startIn(t, g, cmd)
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.UseCgroupFD {
		t.Fatal("v2 group did not offer a cgroup fd")
	}
	release()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if want := "/" + name + "\n"; !strings.HasSuffix(line, want) {
		t.Errorf("child's cgroup is %q, want .../%s", line, name)
	}
	// With CLONE_NEWCGROUP in the same clone3, the new cgroup namespace is
	// rooted at the group: the child sees itself at "/".
	fd, _ := g.FD()
	ns := command(t, "grep", "^0::", "/proc/self/cgroup")
	ns.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd, Cloneflags: syscall.CLONE_NEWCGROUP}
	if out, err := ns.Output(); err != nil || string(out) != "0::/\n" {
		t.Errorf("CLONE_INTO_CGROUP|CLONE_NEWCGROUP child sees %q, %v; want 0::/", out, err)
	}
	// The group is killed and removed while sleep still runs.
	deleteAndCheck(t, g)
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("sleep: %v, want SIGKILL", err)
	}
}
