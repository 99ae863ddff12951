//go:build linux

package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestStopFollowsProgram: a program that stops itself — vi and Claude Code
// read Ctrl-Z as a key, then kill(0, SIGTSTP) — stops omega-run too, so
// the shell waiting for omega-run takes the terminal back; the shell's fg
// continues both. The program's Landlock domain keeps its signal from
// omega-run itself, which then held the terminal for good. The same for a
// background job (cmd &), which the shell then shows stopped. A Ctrl-Z from
// the terminal stops both once, not again after fg. With PID 1 (sandbox
// mode) and with the program as omega-run's own child (rx with a cgroup).
func TestStopFollowsProgram(t *testing.T) {
	type launch struct {
		name  string
		u     user
		flags []string
	}
	launches := []launch{
		{"sandbox/root", rootUser, nil},
		{"sandbox/nobody", nobody, nil},
		{"rx-supervised/root", rootUser, []string{"--mode", "rx", "--memory", "1G"}},
	}
	for _, l := range launches {
		t.Run(l.name+"/stop-self", func(t *testing.T) {
			w := newWorld(t, l.u)
			args := append(append([]string{"job-shell", bin}, l.flags...), "--", probe, "stop-self")
			out := asJob(t, w, "", args...)
			if !strings.Contains(out, "JOB STOPPED 20") || !strings.Contains(out, "resumed") || !strings.Contains(out, "JOB EXITED 0") {
				t.Errorf("want the job stopped by SIGTSTP (20), then resumed and exited 0; terminal:\n%s", out)
			}
		})
		t.Run(l.name+"/stop-self-background", func(t *testing.T) {
			w := newWorld(t, l.u)
			args := append(append([]string{"job-bg", bin}, l.flags...), "--", probe, "stop-self")
			out := asJob(t, w, "", args...)
			if !strings.Contains(out, "JOB STOPPED 20") || !strings.Contains(out, "JOB EXITED 0") {
				t.Errorf("want the background job stopped by SIGTSTP (20), then exited 0; terminal:\n%s", out)
			}
		})
		t.Run(l.name+"/ctrl-z", func(t *testing.T) {
			w := newWorld(t, l.u)
			args := append(append([]string{"job-shell", bin}, l.flags...), "--", "/bin/sh", "-c", "echo ready; sleep 1; echo resumed")
			out := asJob(t, w, "\x1a", args...)
			if n := strings.Count(out, "JOB STOPPED"); n != 1 || !strings.Contains(out, "JOB EXITED 0") {
				t.Errorf("want one stop, then exit 0; got %d stops; terminal:\n%s", n, out)
			}
		})
	}
}

// asJob runs the probe's job-shell as the session leader of a new
// terminal (args start with "job-shell"), types keys once the program
// says ready (none: at once), and returns what the terminal showed.
func asJob(t *testing.T, w *world, keys string, args ...string) string {
	t.Helper()
	return asJobEnv(t, w, nil, keys, args...)
}

// asJobEnv is asJob with env added to the job's environment.
func asJobEnv(t *testing.T, w *world, env []string, keys string, args ...string) string {
	t.Helper()
	out, _ := onNewPty(t, 24, 80, keys, func(ctx context.Context) *exec.Cmd {
		c := w.cmdOf(ctx, probe, args...)
		c.Env = append(c.Env, env...)
		return c
	})
	return out
}

// TestWarnAfterTerminalTaken: a program that leaves the terminal to
// another process group with TOSTOP set does not stop omega-run when it
// warns after the run (SIGTTOU): the warning comes, the exit status is
// the program's, and the shell sees no stop.
func TestWarnAfterTerminalTaken(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			made := w.home + "/.omega/workspace/.envrc"
			out := asJob(t, w, "", "job-shell", bin, "--", probe, "take-terminal", made)
			if strings.Contains(out, "JOB STOPPED") || !strings.Contains(out, "JOB EXITED 0") || !strings.Contains(out, ".envrc") {
				t.Errorf("want the warning about .envrc and exit 0, no stop; terminal:\n%s", out)
			}
		})
	}
}

// TestStopNoTerminal: without a terminal (a script, CI), omega-run does
// not follow the program's stop: another process may continue the program
// alone, and nothing would then continue omega-run, which could not exit
// (the program stops itself, a helper continues it half a second later).
func TestStopNoTerminal(t *testing.T) {
	launches := []struct {
		name  string
		u     user
		flags []string
	}{
		{"sandbox/root", rootUser, nil},
		{"sandbox/nobody", nobody, nil},
		{"rx-supervised/root", rootUser, []string{"--mode", "rx", "--memory", "1G"}},
	}
	for _, l := range launches {
		t.Run(l.name, func(t *testing.T) {
			w := newWorld(t, l.u)
			args := append(append([]string{"job-noterm", bin}, l.flags...), "--", probe, "stop-self-continued")
			r := w.runProg(probe, args...)
			if strings.Contains(r.stdout, "JOB STOPPED") || !strings.Contains(r.stdout, "JOB EXITED 0") {
				t.Errorf("want no stop and exit 0; stdout %q stderr %q", r.stdout, r.stderr)
			}
		})
	}
}

// TestStopBackgroundNoJobControl: on a terminal, but in a background
// process group whose parent does no job control (timeout(1) in a
// script, watchexec, Python's process_group=0), omega-run does not
// follow the program's stop: a helper continues the program alone, the
// program exits, and omega-run, stopped, would never exit (review 3).
func TestStopBackgroundNoJobControl(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			// The terminal's shell runs a job (job-shell), which runs
			// omega-run in a process group of its own (job-setpgid).
			out := asJob(t, w, "", "job-shell", probe, "job-setpgid", bin, "--", probe, "stop-self-continued")
			if !strings.Contains(out, "resumed") || !strings.Contains(out, "JOB EXITED 0") {
				t.Errorf("want the program resumed and omega-run exited 0; terminal:\n%s", out)
			}
		})
	}
}
