package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestLaunchHolds: a lock this process (a launcher, as confined as
// itself) holds is a launch's; no holder, none.
func TestLaunchHolds(t *testing.T) {
	dir := t.TempDir()
	open := func() *os.File {
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	holder, waiter := open(), open()
	if got := launchHolds(waiter); got != nil {
		t.Errorf("unheld: launchHolds = %v", got)
	}
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	syscall.Fstat(int(holder.Fd()), &st)
	if got := lockTakers(lockDevs(int(holder.Fd()), uint64(st.Dev)), st.Ino); !slices.Contains(got, os.Getpid()) {
		t.Errorf("lockTakers = %v, want this process (%d)", got, os.Getpid())
	}
	if got := launchHolds(waiter); !slices.Contains(got, os.Getpid()) {
		t.Errorf("held by this process: launchHolds = %v", got)
	}
	if c, ok := confinement("self"); !ok {
		t.Errorf("confinement(self) = %+v, not read", c)
	}
}

// TestLaunchHoldsBtrfsSubvolumes: on btrfs, /proc/locks names the file
// system's device, which its subvolumes share, and their inode numbers
// collide (each one's first directory is 257): a launch's lock on
// another subvolume's directory of the same number was taken for one on
// this state directory, and the wait went on for a holder it would never
// see let go (or, that holder confined, ended for one that was a
// launch's). A loop-mounted btrfs image; root, for the mount.
func TestLaunchHoldsBtrfsSubvolumes(t *testing.T) {
	a, b := btrfsSubvolumeDirsForLockTest(t)
	open := func(dir string) *os.File {
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	other, waiter := open(b), open(a)
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if got := launchHolds(waiter); got != nil {
		t.Errorf("%s unheld, %s held: launchHolds = %v, want none", a, b, got)
	}
	holder := open(a)
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if got := launchHolds(waiter); !slices.Contains(got, os.Getpid()) {
		t.Errorf("%s held by this process: launchHolds = %v", a, got)
	}
}

// btrfsSubvolumeDirsForLockTest mounts a btrfs image with two subvolumes
// and returns a directory in each with the same inode number.
func btrfsSubvolumeDirsForLockTest(t *testing.T) (string, string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a btrfs image")
	}
	mkfs, err := exec.LookPath("mkfs.btrfs")
	if err != nil {
		t.Skip("needs mkfs.btrfs (btrfs-progs)")
	}
	tmp := t.TempDir()
	img, mnt := filepath.Join(tmp, "img"), filepath.Join(tmp, "mnt")
	run := func(name string, args ...string) {
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 128<<20); err != nil {
		t.Fatal(err)
	}
	run(mkfs, "-q", img)
	if err := os.Mkdir(mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	run("mount", "-o", "loop", img, mnt)
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	var dirs []string
	var inos []uint64
	for _, sub := range []string{"a", "b"} {
		run("btrfs", "subvolume", "create", filepath.Join(mnt, sub))
		d := filepath.Join(mnt, sub, "state")
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		var st syscall.Stat_t
		if err := syscall.Stat(d, &st); err != nil {
			t.Fatal(err)
		}
		dirs, inos = append(dirs, d), append(inos, st.Ino)
	}
	if inos[0] != inos[1] {
		t.Fatalf("inode numbers %v differ: no collision to test", inos)
	}
	return dirs[0], dirs[1]
}
