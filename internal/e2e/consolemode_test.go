//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Console ioctls from linux/kd.h (x/sys/unix lacks them).
const (
	consoleGetKBMode = 0x4b44 // KDGKBMODE
	consoleSetKBMode = 0x4b45 // KDSKBMODE
	consoleGetMode   = 0x4b3b // KDGETMODE
	consoleSetMode   = 0x4b3a // KDSETMODE
)

// TestConsoleModeRefused: on a Linux virtual console that is its
// controlling terminal (a login on tty1, as the caller's session has it),
// a program may set the console's keyboard mode (KDSKBMODE to K_OFF: every
// key dropped) and its display mode (KDSETMODE to KD_GRAPHICS: no text
// drawn). Both outlive the program and leave the user's console dead
// until reset from elsewhere, as TIOCSETD's n_null does a terminal. The
// filter refuses both in every mode under the built-in profiles and a
// custom one (the ioctl rules added to every profile); judged from
// outside with KDGKBMODE and KDGETMODE on a spare console made the
// program's controlling terminal. rwx is the control that the probe sets
// them.
func TestConsoleModeRefused(t *testing.T) {
	requireRoot(t)
	spareConsole(t)
	for _, u := range users {
		for _, c := range ioctlRuleLaunches {
			for _, a := range []struct {
				action, mode string
				get, set     uint
			}{
				{"kdskbmode", "4", consoleGetKBMode, consoleSetKBMode}, // K_OFF
				{"kdsetmode", "1", consoleGetMode, consoleSetMode},     // KD_GRAPHICS
			} {
				t.Run(u.name+"/"+c.name+"/"+a.action, func(t *testing.T) {
					w := newWorld(t, u)
					flags := ioctlRuleFlags(t, w, u, c.flags)
					before, err := unix.IoctlGetInt(int(spareConsole(t).Fd()), a.get)
					if err != nil {
						t.Fatal(err)
					}
					// The session's end hangs the console up: its fds
					// are dead then, a new one is needed.
					defer func() { unix.IoctlSetInt(int(spareConsole(t).Fd()), a.set, before) }()
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer cancel()
					cmd := w.cmd(ctx, append(flags, "--", probe, a.action, a.mode)...)
					cmd.Stdin = spareConsole(t)
					withConsoleCtty(cmd)
					out, _ := cmd.CombinedOutput()
					after, err := unix.IoctlGetInt(int(spareConsole(t).Fd()), a.get)
					if err != nil {
						t.Fatal(err)
					}
					if changed := after != before; changed != (c.name == "rwx") {
						t.Errorf("%s: mode %d after the program's call, %d before (exit %d, output %q)", a.action, after, before, cmd.ProcessState.ExitCode(), out)
					}
				})
			}
		}
	}
}

// spareConsole opens a virtual console no session uses, for the test to
// make a program's controlling terminal, closed when the test ends; it
// skips where the machine has none (a container without /dev/tty63).
func spareConsole(t *testing.T) *os.File {
	t.Helper()
	vt, err := os.OpenFile("/dev/tty63", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no spare virtual console: %v", err)
	}
	t.Cleanup(func() { vt.Close() })
	if _, err := unix.IoctlGetInt(int(vt.Fd()), consoleGetKBMode); err != nil {
		t.Skipf("/dev/tty63 is no virtual console: %v", err)
	}
	return vt
}

// withConsoleCtty starts cmd in a session of its own whose controlling
// terminal is its stdin: the console ioctls need it.
func withConsoleCtty(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setctty = true
	cmd.SysProcAttr.Ctty = 0
}

// TestAfterRunWarningsOnConsole: a program whose stderr is a Linux
// console could store black on black as the console's default colours
// (ESC [ 30;40 m, then ESC [ 8 ]), which SGR 0 in termsafe.TextReset then
// gave the warnings after the run: their cells, read back from
// /dev/vcsa63, held attribute 0x00. Judged from there: the warning's
// first cell is drawn in a foreground that differs from its background.
func TestAfterRunWarningsOnConsole(t *testing.T) {
	requireRoot(t)
	spareConsole(t)
	const sane = "\033[37;40m\033[8]\033[0m\033[2J\033[H" // the console's own default back, a clear screen
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			proj := filepath.Join(w.dataDir, "workspace", "proj")
			mustMkdir(t, proj)
			chownTree(t, w.home, u)
			vt := spareConsole(t)
			unix.Write(int(vt.Fd()), []byte(sane))
			defer func() { unix.Write(int(spareConsole(t).Fd()), []byte(sane)) }()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := w.cmd(ctx, "--workdir", proj, "--", "/bin/sh", "-c", `printf '\033[30;40m\033[8]bye\n'; echo x > .envrc`)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = vt, vt, vt
			withConsoleCtty(cmd)
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			if attr := consoleCell(t, "omega-run: warning"); attr&0x0f == attr>>4&0x07 {
				t.Errorf("the warning is drawn in attribute %#02x: foreground and background alike", attr)
			}
		})
	}
}

// consoleCell is the attribute of the first cell of text on /dev/tty63's
// screen, read from /dev/vcsa63 (4 bytes of size and cursor, then a
// character and an attribute per cell).
func consoleCell(t *testing.T, text string) byte {
	t.Helper()
	b, err := os.ReadFile("/dev/vcsa63")
	if err != nil || len(b) < 4 {
		t.Fatalf("/dev/vcsa63: %v", err)
	}
	var chars []byte
	for i := 4; i+1 < len(b); i += 2 {
		chars = append(chars, b[i])
	}
	i := strings.Index(string(chars), text)
	if i < 0 {
		t.Fatalf("no %q on the console:\n%s", text, chars)
	}
	return b[4+2*i+1]
}
