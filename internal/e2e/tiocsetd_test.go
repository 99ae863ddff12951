//go:build linux

package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ioctlRuleLaunches are the launches whose filters carry the ioctl rules
// added to every profile (built-in and custom), with rwx as the control.
var ioctlRuleLaunches = []struct {
	name  string
	flags []string
}{
	{"rwx", []string{"--mode", "rwx"}},
	{"rx", []string{"--mode", "rx"}},
	{"sandbox", []string{"--mode", "sandbox"}},
	{"sandbox-strict", []string{"--mode", "sandbox", "--seccomp", "strict"}},
	{"rx-custom", []string{"--mode", "rx", "--seccomp", "custom"}},
}

// TestTIOCSETDRefused: TIOCSETD on the terminal the program was given
// sets that terminal's line discipline for every process on it: n_null
// (27) leaves the user's terminal dead until reset. The filter refuses it
// in every mode under the built-in profiles and a custom one (the ioctl
// rules added to every profile); judged from outside with TIOCGETD on
// the test's own pty. rwx is the control that the probe sets it.
func TestTIOCSETDRefused(t *testing.T) {
	for _, u := range users {
		for _, c := range ioctlRuleLaunches {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				flags := ioctlRuleFlags(t, w, u, c.flags)
				_, slave := hostPty(t, u)
				tty, err := os.OpenFile(slave, os.O_RDWR|unix.O_NOCTTY, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer tty.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				cmd := w.cmd(ctx, append(flags, "--", probe, "tiocsetd", "27")...)
				cmd.Stdin = tty
				out, _ := cmd.CombinedOutput()
				ldisc, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGETD)
				if err != nil {
					t.Fatal(err)
				}
				if changed := ldisc != 0; changed != (c.name == "rwx") {
					t.Errorf("line discipline %d after the program's TIOCSETD (exit %d, output %q)", ldisc, cmd.ProcessState.ExitCode(), out)
				}
				unix.IoctlSetPointerInt(int(tty.Fd()), unix.TIOCSETD, 0)
			})
		}
	}
}

// ioctlRuleFlags gives a launch's flags, its "custom" profile written as
// one that allows every call (the ioctl rules are what is left).
func ioctlRuleFlags(t *testing.T, w *world, u user, flags []string) []string {
	t.Helper()
	if flags[len(flags)-1] != "custom" {
		return flags
	}
	allow := w.dataDir + "/allow.json"
	writeFile(t, allow, `{"defaultAction":"SCMP_ACT_ALLOW"}`)
	chownTree(t, w.dataDir, u)
	return append(flags[:len(flags)-1:len(flags)-1], allow)
}
