//go:build linux

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLowFDLimit: under a small `ulimit -n` omega-run either runs the
// program or stops with exit 125 and one line saying which step ran out
// of fds, never a line without a cause ("…: : errno 0"). Limits from 5:
// below that the dynamic loader of a cgo build cannot map libseccomp.
func TestLowFDLimit(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				for n := 5; n <= 16; n++ {
					r := w.under([]string{"prlimit", fmt.Sprintf("--nofile=%d:", n)}, "--mode", mode, "--", "/bin/sh", "-c", "echo ok")
					if r.code == 0 && r.stdout == "ok\n" {
						continue
					}
					if r.code != 125 || !oneLauncherLine(r.stderr) || strings.Contains(r.stderr, "errno 0") || strings.Contains(r.stderr, ": : ") {
						t.Errorf("ulimit -n %d: exit %d, stdout %q, stderr %q; want the program's output, or 125 and one line with its cause", n, r.code, r.stdout, r.stderr)
					}
				}
			})
		}
	}
}

// TestSmallStackLimit: under `ulimit -s 64` (KiB), where sh and a plain
// Go program run, omega-run runs the program too: the C constructor that
// reads the config file before the Go runtime starts had a 64 KiB buffer
// on that stack, and the launcher died of SIGSEGV with no line.
func TestSmallStackLimit(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.under([]string{"prlimit", "--stack=65536"}, "--mode", mode, "--", "/bin/sh", "-c", "echo ok")
				if r.code != 0 || r.stdout != "ok\n" {
					t.Errorf("exit %d, stdout %q, stderr %q; want ok", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// oneLauncherLine tells whether stderr is one "omega-run: " line, after
// the warnings that come before errors (root's rx run, a Go init stage).
func oneLauncherLine(stderr string) bool {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(l, "omega-run: warning: ") {
			lines = append(lines, l)
		}
	}
	return len(lines) == 1 && strings.HasPrefix(lines[0], "omega-run: ")
}

// TestDeletedWorkdirWarning: started in a directory removed meanwhile
// (cd dir; rmdir ../dir), the program runs and the warning says why it
// stays there as the C init stage says it, with no "chdir :" of an empty
// path (the Go init stage's).
func TestDeletedWorkdirWarning(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			d := filepath.Join(w.extra, "gone")
			mustMkdir(t, d)
			chownTree(t, d, u)
			r := w.runProg("/bin/sh", "-c", `cd "$0" && rmdir "$0" && exec "$@"`, d, bin, "--", "/bin/sh", "-c", "echo ran")
			want := "omega-run: warning: working directory (deleted or unmounted on the host) is not visible in the sandbox (no such file or directory); staying in it read-only"
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, want+"\n") {
				t.Errorf("exit %d, stdout %q, stderr %q; want ran and the line %q", r.code, r.stdout, r.stderr, want)
			}
		})
	}
}

// TestUnsearchableWorkdirWarning: started as nobody in a directory it
// may not search (root's cd, then setpriv), the program runs there and
// the warning names the directory and EACCES, as the C init stage says
// it; the Go init stage said the directory had left the host's tree
// (os.Getwd stats "." first).
func TestUnsearchableWorkdirWarning(t *testing.T) {
	w := newWorld(t, nobody)
	d := filepath.Join(w.extra, "closed")
	mustMkdir(t, d)
	if err := os.Chmod(d, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "/bin/sh", "-c", `cd "$0" && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"`,
		d, bin, "--", "/bin/sh", "-c", "pwd")
	c.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	c.Run()
	want := "omega-run: warning: working directory " + d + " is not visible in the sandbox (permission denied); staying in it read-only\n"
	if code := shellStatus(c.ProcessState); code != 0 || out.String() != d+"\n" || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q and the line %q", code, out.String(), errb.String(), d, want)
	}
}

// TestUmaskFirstRun: a first run under a umask that takes the owner's
// write or search bit (umask 0277, 0777) makes a data dir omega-run can
// use, on that run and the next: it was r-x (or ---) and the launch
// failed making workspace/ in it, then every launch after.
func TestUmaskFirstRun(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx"} {
			for _, mask := range []string{"0277", "0777"} {
				t.Run(u.name+"/"+mode+"/"+mask, func(t *testing.T) {
					w := newWorld(t, u)
					if err := os.RemoveAll(w.dataDir); err != nil {
						t.Fatal(err)
					}
					for run := 1; run <= 2; run++ {
						r := w.runProg("/bin/sh", "-c", `umask "$0" && exec "$@"`, mask, bin, "--mode", mode, "--", "/bin/sh", "-c", "echo ok")
						if r.code != 0 || r.stdout != "ok\n" {
							t.Fatalf("run %d: exit %d, stdout %q, stderr %q; want ok", run, r.code, r.stdout, r.stderr)
						}
					}
					if fi, err := os.Stat(w.dataDir); err != nil || fi.Mode().Perm() != 0o700 {
						t.Errorf("data dir: %v, %v; want mode 0700", fi.Mode(), err)
					}
				})
			}
		}
	}
}

// TestUmaskDataDirParents: a --data-dir whose parents are missing too is
// made under umask 0277 as the default one is: every directory omega-run
// makes on the way ends up 0700, and the run works. The parents were
// r-x, and making the next level in them failed (nobody: 125).
func TestUmaskDataDirParents(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				top := filepath.Join(w.extra, "new")
				dir := filepath.Join(top, "a", "data")
				for run := 1; run <= 2; run++ {
					r := w.runProg("/bin/sh", "-c", `umask 0277 && exec "$@"`, "sh", bin, "--mode", mode, "--data-dir", dir, "--", "/bin/sh", "-c", "echo ok")
					if r.code != 0 || r.stdout != "ok\n" {
						t.Fatalf("run %d: exit %d, stdout %q, stderr %q; want ok", run, r.code, r.stdout, r.stderr)
					}
				}
				for _, d := range []string{top, filepath.Dir(dir), dir} {
					if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
						t.Errorf("%s: %v, %v; want mode 0700", d, fi.Mode(), err)
					}
				}
			})
		}
	}
}

// TestUmaskHeldSocket: a socket below the host's /tmp that --allow-socket
// keeps is bound again at its path in sandbox mode's private /tmp, whose
// directories the init stage makes on the way; under umask 0777 they were
// made 0000 (0500 under 0277), in the data dir, for every later run too:
// the program could not reach the socket. They are 0755 whatever the umask.
func TestUmaskHeldSocket(t *testing.T) {
	for _, u := range users {
		for _, mask := range []string{"0277", "0777"} {
			t.Run(u.name+"/"+mask, func(t *testing.T) {
				w := newWorld(t, u)
				dir, err := os.MkdirTemp("/tmp", "omega-e2e-held-")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
				mustMkdir(t, filepath.Join(dir, "a"))
				os.Chmod(dir, 0o755)
				os.Chmod(filepath.Join(dir, "a"), 0o755)
				sock := filepath.Join(dir, "a", "sock")
				connected := listenUnix(t, sock)
				for run, m := range []string{mask, "022"} {
					r := w.runProg("/bin/sh", "-c", `umask "$0" && exec "$@"`, m, bin, "--allow-socket", sock, "--",
						"python3", "-c", "import socket,sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print('ok')", sock)
					if r.code != 0 || r.stdout != "ok\n" || !connected() {
						t.Fatalf("run %d (umask %s): exit %d, stdout %q, stderr %q; want the socket reached", run+1, m, r.code, r.stdout, r.stderr)
					}
				}
			})
		}
	}
}
