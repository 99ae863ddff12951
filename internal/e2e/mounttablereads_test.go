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
	strace := needStrace(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			data := launchTrace(t, newWorld(t, u), strace)
			if n := launcherOpens(data, "/proc/self/mountinfo"); n > 2 {
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
	strace := needStrace(t)
	want := 0
	if os.Getenv("OMEGA_E2E_TAGS") == "omega_goinit" {
		want = 1
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			data := launchTrace(t, newWorld(t, u), strace)
			if n := launcherOpens(data, "/proc/sys/user/max_user_namespaces"); n != want {
				t.Errorf("the launcher's process opened /proc/sys/user/max_user_namespaces %d times; want %d", n, want)
			}
		})
	}
}

// launchTrace is strace -f's log of one sandbox launch of /bin/true in w
// (execve, opens and clones: what launcherOpens reads).
func launchTrace(t *testing.T, w *world, strace string) string {
	t.Helper()
	trace := filepath.Join(w.outside, "trace")
	r := w.under([]string{strace, "-f", "-qq", "-e", "trace=execve,open,openat,clone,clone3", "-o", trace}, "--", "/bin/true")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// launcherOpens counts the opens of path in an strace -f log (execve,
// open, openat, clone, clone3) by the threads of the process that made
// the first execve, the launcher: the early start's helper, a process of
// its own, may log first, and a thread's lines carry its own id. The Go
// runtime makes its threads with clone3, and a goroutine may open on any
// of them; a new thread's first calls may be logged before its creator's
// clone returns, so the threads are found in a first pass.
func launcherOpens(log, path string) int {
	lines := strings.Split(log, "\n")
	children := map[string][]string{}  // a thread's new threads
	cloningThread := map[string]bool{} // the flags of a clone not yet returned
	launcher := ""
	for _, line := range lines {
		tid, call, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		call = strings.TrimSpace(call)
		if launcher == "" && strings.HasPrefix(call, "execve(") {
			launcher = tid
		}
		isClone := strings.HasPrefix(call, "clone(") || strings.HasPrefix(call, "clone3(")
		if isClone {
			cloningThread[tid] = strings.Contains(call, "CLONE_THREAD")
		}
		if isClone || strings.HasPrefix(call, "<... clone resumed>") || strings.HasPrefix(call, "<... clone3 resumed>") {
			if _, child, ok := strings.Cut(call, ") = "); ok && cloningThread[tid] {
				children[tid] = append(children[tid], strings.Fields(child)[0])
			}
		}
	}
	threads := map[string]bool{}
	for todo := []string{launcher}; len(todo) > 0; todo = todo[1:] {
		if !threads[todo[0]] {
			threads[todo[0]] = true
			todo = append(todo, children[todo[0]]...)
		}
	}
	n := 0
	for _, line := range lines {
		tid, call, ok := strings.Cut(line, " ")
		if ok && threads[tid] && strings.Contains(call, "open") && strings.Contains(call, `"`+path+`"`) {
			n++
		}
	}
	return n
}

// needStrace is strace's path; the test is skipped without it (CI and
// `make deps` install it).
func needStrace(t *testing.T) string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace")
	}
	return strace
}
