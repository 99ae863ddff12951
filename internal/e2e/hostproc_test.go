//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPrlimitHostProcess: Landlock scopes signals but not prlimit, which
// needs only the same user: a limit set to 0 cannot be raised again, and
// RLIMIT_CPU kills. The victim is a process of the same user outside;
// rwx is the control that the probe sets it.
func TestPrlimitHostProcess(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "rx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				victim := w.cmdOf(context.Background(), "/bin/sleep", "100")
				if err := victim.Start(); err != nil {
					t.Fatal(err)
				}
				defer func() { victim.Process.Kill(); victim.Wait() }()
				r := w.run("--mode", mode, "--", probe, "prlimit", strconv.Itoa(victim.Process.Pid))
				// /proc: reading another's limits with prlimit needs
				// CAP_SYS_RESOURCE, which root here lacks.
				limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", victim.Process.Pid))
				if err != nil {
					t.Fatal(err)
				}
				changed := regexp.MustCompile(`Max open files +0 +0 `).Match(limits)
				if changed != (mode == "rwx") {
					t.Errorf("victim's limit changed: %v; probe: %s %s", changed, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestPrlimitHostProcessNoUserns: sandbox mode where user namespaces are
// refused (bubblewrap's --disable-userns) runs without a pid namespace,
// as rx does, and gets the same filter.
func TestPrlimitHostProcessNoUserns(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		script := `sleep 100 & v=$!; "$0" -- "$1" prlimit $v; grep "Max open files" /proc/$v/limits; kill $v`
		r := w.runNoUserns(u.uid,
			"/bin/sh", "-c", script, bin, probe)
		if !strings.Contains(r.stderr, "user namespaces are unavailable") || !strings.Contains(r.stdout, "Max open files") {
			t.Fatalf("%s: not the fallback, or no limits read: stdout %q, stderr %q", u.name, r.stdout, r.stderr)
		}
		if regexp.MustCompile(`Max open files +0 +0 `).MatchString(r.stdout) {
			t.Errorf("%s: the program set the limit of a process outside: %q", u.name, r.stdout)
		}
	}
}
