//go:build linux

package e2e

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// TestBrokerConnectSignalledManyGroups: a caller in many supplementary
// groups (a directory user's hundreds) has a /proc/PID/status past 4 KiB
// before its signal masks, its Groups: line being that long. The C
// broker read 4 KiB of it, saw no signal pending, and the program's
// connect then waited for ever: its SIGALRM never ran, nor did timeout's
// SIGTERM end it.
func TestBrokerConnectSignalledManyGroups(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	groups := make([]uint32, 800) // "Groups:" alone > 4 KiB
	for i := range groups {
		groups[i] = uint32(20000 + i)
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			c := w.cmd(ctx, "--", "python3", "-c", signalledConnect, "abstract", "raise")
			c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{
				Uid: uint32(u.uid), Gid: uint32(u.gid), Groups: groups,
			}}
			c.WaitDelay = 2 * time.Second
			var stderr strings.Builder
			c.Stderr = &stderr
			out, err := c.Output()
			if ctx.Err() != nil || err != nil || string(out) != "waiting\ninterrupted after 1 s\n" {
				t.Errorf("SIGALRM: %v (timed out: %v), stdout %q, stderr %q; want interrupted after 1 s",
					err, ctx.Err() != nil, out, stderr.String())
			}
		})
	}
}
