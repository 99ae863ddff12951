//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestManyHostSockets: another local user binds thousands of unix
// sockets (each listed in /proc/net/unix, each a mask of sandbox mode's:
// 76,000 of them made every sandbox launch on the machine take 49 s, and
// past the kernel's mount-max every one would fail). Other users' masks
// stay bounded, root's socket is still masked, and the launch says what
// is left unmasked; with --net none, where a datagram to one of them
// would be a way out, every one is masked.
func TestManyHostSockets(t *testing.T) {
	const decoys, otherUID = 1500, 12345
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(w.extra, "socks")
			mustMkdir(t, dir)
			bind := func(p string, uid int) {
				fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { syscall.Close(fd) })
				if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
					t.Fatal(err)
				}
				os.Chmod(p, 0o777)
				if err := os.Lchown(p, uid, uid); err != nil {
					t.Fatal(err)
				}
			}
			for i := range decoys {
				bind(filepath.Join(dir, "s"+strconv.Itoa(i)), otherUID)
			}
			secret := filepath.Join(w.extra, "secret.sock")
			bind(secret, 0)
			last := filepath.Join(dir, "s"+strconv.Itoa(decoys-1))
			for _, net := range []string{"host", "none"} {
				r := w.run("--net", net, "--", "/bin/sh", "-c", `wc -l < /proc/self/mountinfo; stat -c %F "$0"; stat -c %F "$1"`, secret, last)
				lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
				if r.code != 0 || len(lines) != 3 {
					t.Fatalf("--net %s: exit %d, stdout %q, stderr %q", net, r.code, r.stdout, r.stderr)
				}
				n, _ := strconv.Atoi(lines[0])
				if lines[1] != "regular empty file" {
					t.Errorf("--net %s: root's socket is a %q inside: want it masked (a regular empty file)", net, lines[1])
				}
				said := strings.Contains(r.stderr, "not masked")
				if net == "host" && (n >= decoys || !said) {
					t.Errorf("--net host: %d mounts in the sandbox, unmasked sockets said: %v (stderr %q); want fewer than %d, and said", n, said, r.stderr, decoys)
				}
				if net == "none" && (n < decoys || said || lines[2] != "regular empty file") {
					t.Errorf("--net none: %d mounts, another user's socket is a %q, said: %v; want every socket masked, nothing said", n, lines[2], said)
				}
			}
		})
	}
}
