package sandbox_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/sandbox"
)

// TestStartTwiceAlreadyStarted: a second sandbox.Start of a started
// command fails as a second cmd.Start does, "exec: already started",
// starting nothing, in every mode, with cgroup limits and without, with
// extra files and without; the first run goes on and Wait reports it.
// With limits or extra files it said "cmd.ExtraFiles has files after
// the spec".
func TestStartTwiceAlreadyStarted(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	limited := cgroups.Probe(cgroups.Limits{Pids: 64}) == nil && !testing.Short()
	extra, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	cases := []struct {
		name  string
		p     sandbox.Process
		extra []*os.File
	}{
		{"plain", sandbox.Process{}, nil},
		{"clearenv", sandbox.Process{ClearEnv: true}, nil},
		{"extra file", sandbox.Process{}, []*os.File{extra}},
		{"pids", sandbox.Process{Pids: "64"}, nil},
		{"pids and extra file", sandbox.Process{Pids: "64"}, []*os.File{extra}},
	}
	for _, mode := range []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX, sandbox.ModeRWX} {
		for _, c := range cases {
			if c.p.Pids != "" && !limited {
				t.Logf("%s, %s: skipped, no usable cgroup here", mode, c.name)
				continue
			}
			o := sandbox.Options{Mode: mode, DataDir: t.TempDir(), Process: c.p, ExtraFiles: c.extra}
			cmd, err := o.CommandContext(context.Background(), "echo", "ran")
			if err != nil {
				t.Fatalf("%s, %s: %v", mode, c.name, err)
			}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := sandbox.Start(cmd); err != nil {
				t.Fatalf("%s, %s: Start: %v", mode, c.name, err)
			}
			err = sandbox.Start(cmd)
			if err == nil || err.Error() != "exec: already started" {
				t.Errorf("%s, %s: second Start: %v; want exec: already started", mode, c.name, err)
			}
			if err := sandbox.Wait(cmd); err != nil || stdout.String() != "ran\n" {
				t.Errorf("%s, %s: Wait %v, stdout %q (%s)", mode, c.name, err, stdout.String(), stderr.String())
			}
		}
	}
	noGroupsLeft(t, "after Wait")
}
