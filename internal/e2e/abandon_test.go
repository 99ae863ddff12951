//go:build linux

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNothingLeftBehind: the sandbox starts its init stage while it still
// computes the spec. When computing it fails after the start (an unreadable
// or malformed seccomp profile), the launch ends with 125 and one line,
// the init stage says nothing, and no process is left behind — judged by
// a subreaper around omega-run, which inherits any orphan. A launch that
// runs leaves nothing either.
func TestNothingLeftBehind(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		bad := filepath.Join(w.home, "bad.json")
		writeFile(t, bad, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [`)
		cases := []struct {
			name    string
			args    []string
			code    string
			message string
		}{
			{"missing-profile", []string{"--seccomp", "/no/such/profile.json", "--", "true"}, "exit 125", "no such file"},
			{"malformed-profile", []string{"--seccomp", bad, "--", "true"}, "exit 125", "bad.json"},
			{"runs", []string{"--", "sh", "-c", "sleep 0.05 & exit 3"}, "exit 3", ""},
		}
		for _, c := range cases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				r := w.runProg(probe, append([]string{"subreaper", bin, "--mode", "sandbox"}, c.args...)...)
				if r.code != 0 || !strings.Contains(r.stdout, c.code+"\n") {
					t.Fatalf("want %q and nothing left behind; stdout %q stderr %q", c.code, r.stdout, r.stderr)
				}
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				for _, l := range lines {
					if c.message == "" && l != "" && !strings.HasPrefix(l, "omega-run: warning: ") {
						t.Errorf("stderr = %q, want warnings at most", r.stderr)
					}
				}
				if c.message != "" && (len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.message)) {
					t.Errorf("stderr = %q, want one line 'omega-run: …%s…'", r.stderr, c.message)
				}
			})
		}
		// A low fd limit leaves no room for the early start's fds.
		t.Run(u.name+"/low-fd-limit", func(t *testing.T) {
			r := w.runProg(probe, "subreaper", "/bin/sh", "-c", `ulimit -n 64; exec "$@"`, "sh", bin, "--", "true")
			if r.code != 0 || !strings.Contains(r.stdout, "exit 0\n") {
				t.Errorf("want exit 0 and nothing left behind; stdout %q stderr %q", r.stdout, r.stderr)
			}
		})
	}
}

// TestAbandonedLaunchSyncsState: a launch that fails after Claude Code's
// state was copied into its working copy (a cgroup limit refused to an
// unprivileged user) still copies it back: no working copy is left to be
// mistaken for newer state later.
func TestAbandonedLaunchSyncsState(t *testing.T) {
	w := newWorld(t, nobody)
	claude, state := fakeClaude(t, w, "exit 0")
	chownTree(t, w.home, nobody)
	r := w.run("--memory", "100M", "--", claude)
	if r.code != 125 {
		t.Fatalf("exit %d, want 125 (cgroup refused); stderr %q", r.code, r.stderr)
	}
	if w.exists(filepath.Join(w.home, ".claude", ".claude.json")) {
		t.Error("the working copy of ~/.claude.json was left behind")
	}
	if b, _ := os.ReadFile(state); string(b) != `{"userID": "u"}` {
		t.Errorf("~/.claude.json = %q", b)
	}
}

// TestInitStageKilledBeforeSpec: an init stage that dies before it has
// read its spec (killed while the launcher still computes it: an OOM kill
// in its cgroup) ends the launch with its own status, 128+9 here, and no
// error about the pipe. A FIFO as the seccomp profile holds the launcher
// in the middle of computing the spec.
func TestInitStageKilledBeforeSpec(t *testing.T) {
	w := newWorld(t, rootUser)
	fifo := filepath.Join(w.home, "profile.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := w.cmd(ctx, "--seccomp", fifo, "--", "true")
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var initStage []string
	for deadline := time.Now().Add(5 * time.Second); len(initStage) == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", c.Process.Pid))
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			for _, pid := range strings.Fields(string(b)) {
				// The init stage, not the short-lived helper that
				// may clone it (nsexec/cinit_early.c).
				if cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline"); bytes.HasPrefix(cmd, []byte("omega-run-init\x00")) {
					initStage = append(initStage, pid)
				}
			}
		}
	}
	if len(initStage) != 1 {
		t.Fatalf("init stage children %v, want one; stderr %q", initStage, errb.String())
	}
	pid, _ := strconv.Atoi(initStage[0])
	syscall.Kill(pid, syscall.SIGKILL)
	time.Sleep(50 * time.Millisecond)
	if err := os.WriteFile(fifo, []byte(`{"defaultAction": "SCMP_ACT_ALLOW"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	if code := shellStatus(c.ProcessState); code != 137 || errb.Len() != 0 {
		t.Errorf("exit %d, stderr %q; want 137 and nothing", code, errb.String())
	}
}
