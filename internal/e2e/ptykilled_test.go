//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPtyLauncherKilled: omega-run --pty killed with SIGKILL (the OOM
// killer, kill -9) gets no chance to put the caller's terminal back: it
// stayed raw, no echo and no line editing at the shell's prompt, until
// `reset`. Its guardian, which outlives it, puts it back.
func TestPtyLauncherKilled(t *testing.T) {
	for _, u := range users {
		for _, userns := range []bool{true, false} {
			name := u.name + "/sandbox"
			if !userns {
				name = u.name + "/no-userns" // no pid namespace: omega-run is the subreaper
			}
			t.Run(name, func(t *testing.T) {
				w := newWorld(t, u)
				args := omegaArgs([]string{"--pty"}, "/bin/sh", "-c", "echo ready; exec sleep 60")
				if !userns {
					args = append(noUserns(t, u.uid), args...)
				}
				p := startOnPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd { return w.cmdOf(ctx, args[0], args[1:]...) })
				for deadline := time.Now().Add(20 * time.Second); !strings.Contains(p.out.String(), "ready") && time.Now().Before(deadline); {
					time.Sleep(10 * time.Millisecond)
				}
				if tio, _ := unix.IoctlGetTermios(int(p.master.Fd()), unix.TCGETS); tio == nil || tio.Lflag&unix.ECHO != 0 {
					t.Fatalf("omega-run did not make the terminal raw (%+v); terminal:\n%s", tio, p.out.String())
				}
				launcher := launcherIn(t, p.c.Process.Pid)
				if err := unix.Kill(launcher, unix.SIGKILL); err != nil {
					t.Fatal(err)
				}
				p.c.Wait()
				// The guardian's restore follows the launcher's death:
				// awaited, not timed.
				var tio *unix.Termios
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
					if tio, _ = unix.IoctlGetTermios(int(p.master.Fd()), unix.TCGETS); tio != nil && tio.Lflag&unix.ECHO != 0 {
						break
					}
				}
				checkCooked(t, tio)
			})
		}
	}
}

// launcherIn is the pid of omega-run --pty in the session led by sid
// (omega-run itself, or a wrapper that runs it).
func launcherIn(t *testing.T, sid int) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			argv := bytes.Split(cmdline, []byte{0})
			if s, err := unix.Getsid(pid); err == nil && s == sid && len(argv) > 1 && string(argv[0]) == bin && string(argv[1]) == "--pty" {
				return pid
			}
		}
	}
	t.Fatalf("no omega-run --pty in session %d", sid)
	return 0
}
