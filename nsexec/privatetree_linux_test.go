package nsexec

import "testing"

func TestPrivateTree(t *testing.T) {
	private := &Spec{Mounts: &MountPlan{TmpFrom: "/home/u/.omega/tmp", FreshRun: true}}
	shared := &Spec{Mounts: &MountPlan{}}
	for _, c := range []struct {
		s    *Spec
		wd   string
		want int
	}{
		{private, "/tmp", 2},
		{private, "/tmp/build", 1},
		{private, "/tmpx", 0},
		{private, "/run", 2},
		{private, "/run/user/1000", 1},
		{private, "/var/run/x", 1}, // where it is a directory, not the usual link
		{shared, "/var/run/x", 0},
		{private, "/dev", 2},
		{private, "/dev/shm/x", 1},
		{private, "/dev/shm", 2}, // the sandbox's own tmpfs
		{shared, "/dev/shm", 2},
		{private, "/dev/shmx", 1},
		{private, "/proc", 2},
		{private, "/proc/42/task", 1},
		{private, "/procfs", 0},
		{private, "/home/u", 0},
		{shared, "/tmp/build", 0}, // the host's /tmp is the sandbox's
		{shared, "/run", 0},
		{shared, "/dev", 2},
	} {
		if got := privateTree(c.s, c.wd); got != c.want {
			t.Errorf("privateTree(%+v, %q) = %d, want %d", *c.s.Mounts, c.wd, got, c.want)
		}
	}
}
