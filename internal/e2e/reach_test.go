//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTruncateThroughHostMounts: what the program inherits from the host
// (stdin from a file, a --preserve-fds directory, which sandbox mode
// refuses, a working directory the sandbox does not show) leads onto the
// host's writable mounts, around sandbox mode's read-only root. Truncating a file outside the writable
// set through them must still fail; the sentinel is checked from outside,
// and rwx is the control.
func TestTruncateThroughHostMounts(t *testing.T) {
	cases := []struct {
		name   string
		keep   string // --preserve-fds
		script string // run by sh outside: S is the sentinel, O its directory
	}{
		{"stdin truncate(2)", "0", `exec "$@" truncate /proc/self/fd/0 < "$S"`},
		{"stdin O_TRUNC", "0", `exec "$@" open-trunc /dev/stdin < "$S"`},
		{"directory fd", "1", `exec 3< "$O"; exec "$@" truncate /proc/self/fd/3/sentinel`},
	}
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, nobody)
				env := fmt.Sprintf("S=%q O=%q; ", filepath.Join(w.outside, "sentinel"), w.outside)
				args := []string{"-c", env + c.script, "sh", bin, "--mode", mode, "--preserve-fds", c.keep, "--", probe}
				r := w.runProg("/bin/sh", args...)
				if mode == "sandbox" && c.keep == "1" {
					// A directory fd is refused (TestHostDirectoryFD).
					if r.code != 125 || w.sentinel() != "original" {
						t.Errorf("exit %d, sentinel %q, stderr %q; want it refused", r.code, w.sentinel(), r.stderr)
					}
					return
				}
				if !strings.Contains(r.stdout+r.stderr, "ok") && !strings.Contains(r.stdout, "refused") {
					t.Fatalf("the probe did not run: stdout %q, stderr %q", r.stdout, r.stderr)
				}
				// rwx is the control: the same attempt truncates.
				if kept := w.sentinel() == "original"; kept != (mode != "rwx") {
					t.Errorf("sentinel kept = %v in %s; stdout %q, stderr %q", kept, mode, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestTruncateFromDetachedWorkdir: a working directory on a mount that is
// no longer in the host's tree (unmounted lazily while a shell sits in
// it) is not in the sandbox's either; the program stays in it, on a
// writable mount, and truncating a file there must still fail.
func TestTruncateFromDetachedWorkdir(t *testing.T) {
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			d := filepath.Join(w.outside, "detached")
			mustMkdir(t, d)
			script := `mount -t tmpfs tmpfs "$0" && cd "$0" && umount -l "$0" && printf original > sentinel || exit 99
"$@" truncate sentinel; echo "after=$(cat sentinel)."`
			r := w.runProg("/bin/sh", "-c", script, d, bin, "--mode", mode, "--", probe)
			if r.code == 99 || !strings.Contains(r.stdout, "after=") {
				t.Fatalf("setting up: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			if kept := strings.Contains(r.stdout, "after=original."); kept != (mode != "rwx") {
				t.Errorf("sentinel kept = %v in %s; stdout %q, stderr %q", kept, mode, r.stdout, r.stderr)
			}
		})
	}
}

// TestDeviceIoctlOutsideDev: a device node outside /dev (a chroot's, a
// container image's) must not take ioctls in the confined modes, although
// it can be opened for reading. The node here is the loop driver's control
// device; the test checks from outside that no loop device was added.
func TestDeviceIoctlOutsideDev(t *testing.T) {
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		t.Skip("no loop driver:", err)
	}
	const n = 3917 // a loop device nobody uses
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			node := filepath.Join(w.outside, "loop-control")
			if err := unix.Mknod(node, syscall.S_IFCHR|0o600, int(unix.Mkdev(10, 237))); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { removeLoop(n) })
			r := w.run("--mode", mode, "--", probe, "loop-add", node, fmt.Sprint(n))
			_, err := os.Stat(fmt.Sprintf("/sys/block/loop%d", n))
			if added := err == nil; added != (mode == "rwx") {
				t.Errorf("loop%d added = %v in %s; stdout %q, stderr %q", n, added, mode, r.stdout, r.stderr)
			}
		})
	}
}

func removeLoop(n int) {
	if fd, err := unix.Open("/dev/loop-control", unix.O_RDWR|unix.O_CLOEXEC, 0); err == nil {
		unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.LOOP_CTL_REMOVE, uintptr(n))
		unix.Close(fd)
	}
}

// TestDeviceNodeOutsideDev: a root-run sandbox opens a block device node
// left outside /dev (a chroot, an image) and reads the disk under a file
// it was told to --hide. The read-only root is nodev, as bubblewrap's
// --ro-bind; rwx is the control. rx has no mount namespace to hide from.
func TestDeviceNodeOutsideDev(t *testing.T) {
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		t.Skip("no loop driver:", err)
	}
	const secret = "omega-secret-on-disk"
	for _, mode := range []string{"rwx", "sandbox"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			img := filepath.Join(w.outside, "disk.img")
			if err := os.WriteFile(img, append([]byte(secret), make([]byte, 1<<16)...), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("losetup", "--find", "--show", img).Output()
			if err != nil {
				t.Skip("losetup:", err)
			}
			dev := strings.TrimSpace(string(out))
			t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
			var st unix.Stat_t
			if err := unix.Stat(dev, &st); err != nil {
				t.Fatal(err)
			}
			node := filepath.Join(w.outside, "disk")
			if err := unix.Mknod(node, syscall.S_IFBLK|0o600, int(st.Rdev)); err != nil {
				t.Fatal(err)
			}
			args := []string{"--mode", mode, "--hide", img}
			if mode == "rwx" {
				args = args[:2] // rwx refuses --hide: nothing would enforce it
			}
			r := w.run(append(args, "--", "head", "-c", fmt.Sprint(len(secret)), node)...)
			if read := strings.Contains(r.stdout, secret); read != (mode == "rwx") {
				t.Errorf("disk read through %s = %v in %s; stdout %q, stderr %q", node, read, mode, r.stdout, r.stderr)
			}
			if mode == "sandbox" && !strings.Contains(r.stderr, "Permission denied") {
				t.Errorf("want the open refused (nodev); stderr %q", r.stderr)
			}
		})
	}
}

// TestHostDirectoryFD: a directory among the program's fds (stdin, a
// --preserve-fds fd) is the host's, outside the sandbox's mounts: through
// /proc/self/fd/N the program would read a credential store that sandbox
// mode hides and change a mode its read-only root keeps. sandbox refuses
// the launch (125); rx, which hides nothing and leaves modes open, and rwx
// are the controls that show the attempt works where nothing refuses it.
func TestHostDirectoryFD(t *testing.T) {
	cases := []struct{ name, keep, fd, script string }{
		{"stdin", "0", "0", `exec "$@" < "$H"`},
		{"preserved", "1", "3", `exec 3< "$H"; exec "$@"`},
	}
	for _, u := range users {
		for _, c := range cases {
			for _, mode := range []string{"rwx", "rx", "sandbox"} {
				t.Run(u.name+"/"+c.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					ssh := filepath.Join(w.home, ".ssh")
					mustMkdir(t, ssh)
					writeFile(t, filepath.Join(ssh, "id_test"), "SECRET")
					chownTree(t, ssh, u)
					sentinel := filepath.Join(w.outside, "sentinel")
					prog := fmt.Sprintf(`cat /proc/self/fd/%[1]s/.ssh/id_test; chmod 600 /proc/self/fd/%[1]s/outside/sentinel`, c.fd)
					r := w.runProg("/bin/sh", "-c", fmt.Sprintf("H=%q; ", w.home)+c.script, "sh",
						bin, "--mode", mode, "--preserve-fds", c.keep, "--", "/bin/sh", "-c", prog)
					fi, err := os.Stat(sentinel)
					if err != nil {
						t.Fatal(err)
					}
					read, changed := strings.Contains(r.stdout, "SECRET"), fi.Mode().Perm() != 0o644
					if mode != "sandbox" {
						if !read || !changed {
							t.Fatalf("control: read %v, mode changed %v; exit %d, stderr %q", read, changed, r.code, r.stderr)
						}
						return
					}
					if r.code != 125 || read || changed || !strings.Contains(r.stderr, "fd "+c.fd+" ") ||
						!strings.Contains(r.stderr, "is the directory "+w.home) {
						t.Errorf("read %v, mode changed %v; exit %d, stdout %q, stderr %q; want 125 naming fd %s", read, changed, r.code, r.stdout, r.stderr, c.fd)
					}
				})
			}
		}
	}
}
