//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkdirWarning: started in a directory outside the writable set
// (cd ~/proj && omega-run -- touch x), a launch on a terminal says that
// the program cannot write there and how to let it; with stderr not a
// terminal (an agent's many commands in a read-only checkout), in rwx,
// or with --allow-write . it says nothing. explain says it either way.
func TestWorkdirWarning(t *testing.T) {
	const sign = "is outside the writable set: the program cannot write in it (add --allow-write . to let it)"
	const script = "echo ready; touch x && echo wrote"
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				w.dir = filepath.Join(w.home, "proj")
				mustMkdir(t, w.dir)
				chownTree(t, w.dir, u)
				out, code := onPty(t, w, "", "--mode", mode, "--", "/bin/sh", "-c", script)
				if code == 0 || !strings.Contains(out, "working directory "+w.dir+" "+sign) || strings.Count(out, sign) != 1 {
					t.Errorf("on a terminal: exit %d, output:\n%s\nwant the write refused and one warning", code, out)
				}
				out, code = onPty(t, w, "", "--mode", mode, "--allow-write", ".", "--", "/bin/sh", "-c", script)
				if code != 0 || strings.Contains(out, "working directory") {
					t.Errorf("--allow-write . on a terminal: exit %d, output:\n%s\nwant the write, no warning", code, out)
				}
				out, code = onPty(t, w, "", "--mode", "rwx", "--", "/bin/sh", "-c", "echo ready")
				if code != 0 || strings.Contains(out, "working directory") {
					t.Errorf("rwx on a terminal: exit %d, output:\n%s\nwant no warning", code, out)
				}
				if r := w.run("--mode", mode, "--", "/bin/true"); r.code != 0 || strings.Contains(r.stderr, "working directory") {
					t.Errorf("stderr not a terminal: %+v, want no warning", r)
				}
				r := w.run("explain", "--mode", mode)
				if !strings.Contains(r.stdout, "workdir:     "+w.dir+"  (not writable: --allow-write . lets the program write in it)\n") {
					t.Errorf("explain: %q lacks the working directory's line", r.stdout)
				}
				if r := w.run("explain", "--mode", mode, "--allow-write", "."); !strings.Contains(r.stdout, "workdir:     "+w.dir+"  (writable)\n") {
					t.Errorf("explain --allow-write .: %q", r.stdout)
				}
			})
		}
	}
}

// TestWorkdirWarningPrivateTrees: started in /tmp or /dev/shm, sandbox
// mode's program starts in the sandbox's own, and writes there, so no
// launch warning says it cannot (nor that --allow-write ., which changes
// nothing there, would let it). On a terminal one line says whose
// directory it is; through a pipe nothing is said: every launch from
// /tmp warned "is not visible in the sandbox", and from /dev/shm the
// program started in /, where it could write nothing. In rx it writes
// the host's /dev/shm, and nothing is said.
func TestWorkdirWarningPrivateTrees(t *testing.T) {
	const sign = "is outside the writable set"
	const script = "echo ready; pwd; touch omega-e2e-wd.$$ && rm omega-e2e-wd.$$ && echo wrote"
	for _, u := range users {
		for _, c := range []struct{ mode, dir, note string }{
			{"sandbox", "/tmp", "working directory /tmp: the program starts in the sandbox's own /tmp"},
			{"sandbox", "/dev/shm", "working directory /dev/shm: the program starts in the sandbox's own /dev/shm"},
			{"rx", "/dev/shm", ""},
		} {
			t.Run(u.name+"/"+c.mode+c.dir, func(t *testing.T) {
				w := newWorld(t, u)
				w.dir = c.dir
				out, code := onPty(t, w, "", "--mode", c.mode, "--", "/bin/sh", "-c", script)
				if strings.Contains(out, sign) || strings.Contains(out, "--allow-write . to let it") || strings.Contains(out, "not visible") {
					t.Errorf("on a terminal: exit %d, output:\n%s\nwant no warning that the directory is not writable or visible", code, out)
				}
				if code != 0 || !strings.Contains(out, "\n"+c.dir+"\r\n") || !strings.Contains(out, "wrote") {
					t.Errorf("on a terminal: exit %d, output:\n%s\nwant the program started in %s, writing there", code, out, c.dir)
				}
				if n := strings.Count(out, "working directory"); c.note != "" && (n != 1 || !strings.Contains(out, c.note)) || c.note == "" && n != 0 {
					t.Errorf("on a terminal: output:\n%s\nwant the note %q alone", out, c.note)
				}
				r := w.run("--mode", c.mode, "--", "/bin/sh", "-c", script)
				if r.code != 0 || r.stdout != "ready\n"+c.dir+"\nwrote\n" || strings.Contains(r.stderr, "working directory") {
					t.Errorf("through a pipe: %+v, want the write and no word about the working directory", r)
				}
				r = w.run("explain", "--mode", c.mode)
				if line := "workdir:     " + c.dir + "  (writable)\n"; !strings.Contains(r.stdout, line) {
					t.Errorf("explain: %q, want %q", workdirLine(r.stdout), line)
				}
			})
		}
	}
}

// workdirLine is explain's workdir: line, for a failure's message.
func workdirLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "workdir:") {
			return l
		}
	}
	return "(no workdir: line)"
}

// TestWorkdirKeptWarnedOnce: on a terminal, a working directory below the
// host's /tmp, which sandbox mode keeps read-only, is named by one
// warning, the kept directory's, that says how to make it writable: the
// working directory's own said the same again. Through a pipe nothing is
// said, as of any working directory the program cannot write (an agent's
// or CI's every command in a mktemp -d checkout), and --fail-closed runs:
// both warnings are usability, not enforcement, yet the kept one was said
// on every launch and refused --fail-closed's (125) from below /tmp.
func TestWorkdirKeptWarnedOnce(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir, err := os.MkdirTemp("/tmp", "omega-e2e-kept-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			chownTree(t, dir, u)
			w.dir = dir
			out, code := onPty(t, w, "", "--", "/bin/sh", "-c", "echo ready")
			if n := strings.Count(out, "--allow-write . "); !strings.Contains(out, "it is kept in the sandbox, read-only") || n != 1 ||
				!strings.Contains(out, "is the host's, below the host's /tmp (the sandbox's /tmp is its own)") {
				t.Errorf("exit %d, output:\n%s\nwant the kept directory's warning alone (%d naming --allow-write .)", code, out, n)
			}
			for _, args := range [][]string{nil, {"--fail-closed"}} {
				r := w.run(append(args, "--", "/bin/sh", "-c", "echo ran; touch x || echo read-only")...)
				if r.code != 0 || r.stdout != "ran\nread-only\n" || strings.Contains(r.stderr, "working directory") {
					t.Errorf("through a pipe %q: %+v, want it run, the directory read-only, and no word about it", args, r)
				}
			}
		})
	}
}

// TestWorkdirProcNoOwnNote: started in /proc itself, where the host's
// /proc has parts covered (as in a container) the sandbox keeps the
// host's, and says so; yet a terminal was also told that "the program
// starts in the sandbox's own /proc, not the host's". The launcher
// cannot tell before the start which /proc the program gets: it says
// nothing about /proc, and the init stage's warning stands alone.
func TestWorkdirProcNoOwnNote(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			w.dir = "/proc"
			script := "mount -t tmpfs none /proc/sys/kernel/random || exit 99\nexec setpriv --reuid=" + fmt.Sprint(w.u.uid) +
				" --regid=" + fmt.Sprint(w.u.gid) + " --clear-groups \"$@\""
			asRoot := *w
			asRoot.u = rootUser
			out, _ := onNewPty(t, 24, 200, "", func(ctx context.Context) *exec.Cmd {
				return asRoot.cmdOf(ctx, "unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin,
					"--", "/bin/sh", "-c", "pwd")
			})
			if !strings.Contains(out, "a fresh /proc could not be mounted") || strings.Contains(out, "own /proc") {
				t.Errorf("output:\n%s\nwant the host's /proc said, and no note of the sandbox's own", out)
			}
		})
	}
}

// TestWorkdirKernelTreeNoFix: started in /proc, /sys or /dev, a terminal
// was told to "add --allow-write . to let it" write there, and explain
// offered the same: a grant of the kernel's own files, which lets no
// build write its output (and --allow-write /proc then warned about
// every process's unreadable fdinfo). Nothing is offered now.
func TestWorkdirKernelTreeNoFix(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, dir := range []string{"/proc", "/sys/kernel", "/dev"} {
				t.Run(u.name+"/"+mode+dir, func(t *testing.T) {
					w := newWorld(t, u)
					w.dir = dir
					out, code := onPty(t, w, "", "--mode", mode, "--", "/bin/sh", "-c", "echo ready")
					if code != 0 || !strings.Contains(out, "ready") || strings.Contains(out, "--allow-write .") {
						t.Errorf("on a terminal: exit %d, output:\n%s\nwant it run, with no --allow-write . offered", code, out)
					}
					if r := w.run("explain", "--mode", mode); strings.Contains(workdirLine(r.stdout), "--allow-write") {
						t.Errorf("explain: %q, want no --allow-write offered", workdirLine(r.stdout))
					}
				})
			}
		}
	}
}
