//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWorkdirHostSockets: a program started in a directory below the
// host's /tmp or /run, which the sandbox replaces, stayed in the host's
// directory under its private one; no mask covers the host's sockets
// there (those directories are "private"), so a datagram reached one by
// a relative path, in the working directory or, through "..", anywhere
// else in the host's /tmp or /run (systemd's notify and journal sockets
// live there). The connect broker refused connect(2); sendto(2) it does
// not see. Now a directory below them is kept at its path in the
// sandbox, its sockets masked there, and a program started in /tmp or
// /run itself starts in the sandbox's own. rwx is the control.
func TestWorkdirHostSockets(t *testing.T) {
	for _, base := range []string{"/tmp", "/run"} {
		if fi, err := os.Lstat(base); err != nil || !fi.IsDir() {
			continue
		}
		for _, u := range users {
			for _, mode := range []string{"rwx", "sandbox"} {
				t.Run(base+"/"+u.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					wd := hostDirIn(t, base, "omega-e2e-wd-", u)
					other := hostDirIn(t, base, "omega-e2e-other-", u)
					inWd, send := boundSocket(t, "dgram", filepath.Join(wd, "in.sock"))
					elsewhere, _ := boundSocket(t, "dgram", filepath.Join(other, "out.sock"))
					for _, c := range []struct {
						dir, target string
						got         func() bool
					}{
						{wd, "in.sock", inWd},
						{wd, filepath.Join(wd, "in.sock"), inWd},
						{wd, "../" + filepath.Base(other) + "/out.sock", elsewhere},
						{base, filepath.Base(other) + "/out.sock", elsewhere}, // started in the host's /tmp itself
					} {
						r := w.runIn(c.dir, "--mode", mode, "--", probe, send, c.target)
						if g, want := c.got(), mode == "rwx"; g != want {
							t.Errorf("in %s, %s: got through: %v, want %v (exit %d, stdout %q, stderr %q)", c.dir, c.target, g, want, r.code, r.stdout, r.stderr)
						}
					}
				})
			}
		}
	}
}

// hostDirIn makes a directory of u's below base on the host, removed at
// the test's end.
func hostDirIn(t *testing.T, base, prefix string, u user) string {
	t.Helper()
	dir, err := os.MkdirTemp(base, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chown(dir, u.uid, u.gid); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWorkdirHostProc: started in the host's /proc, the program stayed in
// it below the sandbox's fresh one, and listed every host process (and
// read their command lines) through its working directory. Now it starts
// in the sandbox's /proc. rwx is the control.
func TestWorkdirHostProc(t *testing.T) {
	self := strconv.Itoa(os.Getpid())
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			w := newWorld(t, u)
			r := w.runIn("/proc", "--mode", mode, "--", "/bin/sh", "-c", "test -e ./"+self+"/cmdline && echo HOST")
			if got, want := strings.Contains(r.stdout, "HOST"), mode == "rwx"; got != want {
				t.Errorf("%s %s: the test's process %s seen: %v, want %v (exit %d, stderr %q)", u.name, mode, self, got, want, r.code, r.stderr)
			}
		}
	}
}

// TestWorkdirTmpStores: a credential store the caller's environment puts
// below the host's /tmp (KUBECONFIG=/tmp/kc/config, GNUPGHOME=/tmp/gpg)
// is not masked, the sandbox's /tmp being its own; started in its
// directory, the program read it through its working directory. A file
// store in the working directory is masked now, and a directory store
// that holds it refuses the launch (125), as one in home does. rwx is the
// control.
func TestWorkdirTmpStores(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			w := newWorld(t, u)
			wd := hostDirIn(t, "/tmp", "omega-e2e-stores-", u)
			kube := filepath.Join(wd, "config")
			writeFile(t, kube, "SECRET kube")
			gpg := filepath.Join(wd, "gpg")
			mustMkdir(t, gpg)
			writeFile(t, filepath.Join(gpg, "k.key"), "SECRET gpg")
			chownTree(t, wd, u)
			for _, c := range []struct {
				env       string
				dir, file string
			}{{"KUBECONFIG=" + kube, wd, "config"}, {"GNUPGHOME=" + gpg, gpg, "k.key"}} {
				saved := w.dir
				w.dir = c.dir
				r := w.runEnv([]string{c.env}, "--mode", mode, "--", probe, "read", c.file)
				w.dir = saved
				if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
					t.Errorf("%s %s, %s in %s: read: %v (exit %d, stderr %.300q)", u.name, mode, c.env, c.dir, got, r.code, r.stderr)
				}
			}
		}
	}
}
