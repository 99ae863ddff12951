//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMountTableReadsPerLaunch: the kernel makes /proc/self/mountinfo up
// at each read (≈ 0.05 ms here, bench/PROFILE.md), and a sandbox launch's
// own process reads it twice: the Go runtime's look for its CPU limit and
// the mount plan's. The hidden-/proc check read it a third time at every
// unprivileged launch, for a warning given only with --net none; it now
// reads it only there (TestNetNoneHiddenProcSockets has the warning).
func TestMountTableReadsPerLaunch(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			trace := filepath.Join(w.outside, "trace")
			r := w.under([]string{strace, "-f", "-qq", "-e", "trace=execve,open,openat,clone", "-o", trace}, "--", "/bin/true")
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			data, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			if n := launcherOpens(string(data), "/proc/self/mountinfo"); n > 2 {
				t.Errorf("the launcher's process opened /proc/self/mountinfo %d times; want 2 at most", n)
			}
		})
	}
}

// TestUsernsSignsReadOnce: a sandbox launch whose init stage the CLI's
// constructor started has what the cheap signs of unavailable user
// namespaces ask answered by that start (TestEarlyStartForeignProc has
// the /proc it relies on); its own process reads no /proc/sys for them,
// and without the early start (the Go init stage) it still does.
func TestUsernsSignsReadOnce(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace")
	}
	want := 0
	if os.Getenv("OMEGA_E2E_TAGS") == "omega_goinit" {
		want = 1
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			trace := filepath.Join(w.outside, "trace")
			r := w.under([]string{strace, "-f", "-qq", "-e", "trace=execve,open,openat,clone", "-o", trace}, "--", "/bin/true")
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			data, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			if n := launcherOpens(string(data), "/proc/sys/user/max_user_namespaces"); n != want {
				t.Errorf("the launcher's process opened /proc/sys/user/max_user_namespaces %d times; want %d", n, want)
			}
		})
	}
}

// launcherOpens counts the opens of path in an strace -f log (execve,
// open, openat, clone) by the threads of the process that made the first
// execve, the launcher: the early start's helper, a process of its own,
// may log first, and a thread's lines carry its own id.
func launcherOpens(log, path string) int {
	threads := map[string]bool{}
	cloningThread := map[string]bool{} // the flags of a clone not yet returned
	launcher, n := "", 0
	for _, line := range strings.Split(log, "\n") {
		tid, call, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		call = strings.TrimSpace(call)
		if launcher == "" && strings.HasPrefix(call, "execve(") {
			launcher, threads[tid] = tid, true
		}
		if strings.HasPrefix(call, "clone(") {
			cloningThread[tid] = strings.Contains(call, "CLONE_THREAD")
		}
		if strings.HasPrefix(call, "clone(") || strings.HasPrefix(call, "<... clone resumed>") {
			if _, child, ok := strings.Cut(call, ") = "); ok && threads[tid] && cloningThread[tid] {
				threads[strings.Fields(child)[0]] = true
			}
		}
		if threads[tid] && strings.Contains(call, "open") && strings.Contains(call, `"`+path+`"`) {
			n++
		}
	}
	return n
}
