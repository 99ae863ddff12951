//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCtrlCBeforeProgram: a Ctrl-C typed at the terminal while the launch
// is still setting up, before the program exists, ends the launch, as it
// ends a plain `sleep 1; prog` or an exec in place: the program never got
// that key, and the launcher in the foreground forwards none. strace holds
// the launcher at its state lock's flock (Claude Code's, free) for 1.5 s,
// and the key comes once the launcher is there. Both init stages, root
// and nobody.
func TestCtrlCBeforeProgram(t *testing.T) {
	strace := needStrace(t)
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				claude, _ := fakeClaude(t, w, "sleep 1; echo ran")
				mustMkdir(t, filepath.Join(w.home, ".claude"))
				chownTree(t, w.home, u)
				trace := filepath.Join(w.home, "strace.out")
				p := startOnPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd {
					return w.cmdOf(ctx, strace, "-f", "-qq", "-o", trace, "-e", "trace=flock",
						"-e", "inject=flock:delay_enter=1500000:when=1", b, "--", claude)
				})
				ctrlCWhenTraced(t, p, trace, "flock(")
			})
		}
	}
}

// TestCtrlCBeforeInitStage: the same Ctrl-C, when the init stage is not
// there yet to get it: the launcher starts it beside the launch's other
// work where the CLI's constructor did not (a build without cgo; a
// cgroup limit), and on a busy machine the key can come first. The
// launcher, in the foreground, forwards no Ctrl-C (the program got its
// own), and an init stage started after it, or in a pid namespace before
// its handlers, never saw it: the program ran. strace holds the init
// stage's start 1.5 s (the Go stage's execve; the C stage's clone: a
// traced process keeps a signal its default ignores, which hid the loss
// at its execve); the key comes once it is held. A cgroup limit needs a
// writable cgroup: root's, here.
func TestCtrlCBeforeInitStage(t *testing.T) {
	strace := needStrace(t)
	nocgo := nocgoBinary(t)
	execve := []string{"-P", "/proc/self/exe", "-e", "trace=execve", "-e", "inject=execve:delay_enter=1500000"}
	clone := []string{"-e", "trace=clone", "-e", "inject=clone:delay_enter=1500000:when=1"}
	launches := []struct {
		name   string
		hold   []string
		marker string
		bin    string
		flags  []string
		u      user
	}{
		{"no cgo/root", execve, `execve("/proc/self/exe"`, nocgo, nil, rootUser},
		{"no cgo/nobody", execve, `execve("/proc/self/exe"`, nocgo, nil, nobody},
		{"pids limit/root", clone, "CLONE_NEWPID", bin, []string{"--pids", "64"}, rootUser},
	}
	for _, l := range launches {
		t.Run(l.name, func(t *testing.T) {
			w := newWorld(t, l.u)
			prog := filepath.Join(w.home, "prog")
			writeExec(t, prog, "#!/bin/sh\nsleep 1; echo ran\n")
			chownTree(t, w.home, l.u)
			trace := filepath.Join(w.home, "strace.out")
			p := startOnPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd {
				args := append(append([]string{"-f", "-qq", "-o", trace}, l.hold...), l.bin)
				return w.cmdOf(ctx, strace, append(append(args, l.flags...), "--", prog)...)
			})
			ctrlCWhenTraced(t, p, trace, l.marker)
		})
	}
}

// ctrlCWhenTraced types Ctrl-C once strace's output holds marker (the
// held call has begun: the launcher catches its signals by then), and
// checks that the launch ended as interrupted, the program not run.
func ctrlCWhenTraced(t *testing.T, p ptyStarted, trace, marker string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(trace); strings.Contains(string(b), marker) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("strace never showed %s", marker)
		}
	}
	p.master.WriteString("\x03")
	p.c.Wait()
	<-p.done
	if out := p.out.String(); strings.Contains(out, "ran") || shellStatus(p.c.ProcessState) != 130 {
		t.Errorf("exit %d, want 130 and the program not run; output:\n%s", shellStatus(p.c.ProcessState), out)
	}
}
