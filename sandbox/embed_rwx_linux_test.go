package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestRWXCommandProcess: Options.CommandContext in rwx applies the
// Process settings as the CLI's rwx does, rather than starting the
// program plainly without them: an embedder asking for another user or
// a limit got the caller's ids and limits without a word.
func TestRWXCommandProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("LEAKED", "yes")
	proc := sandbox.Process{ClearEnv: true, SetEnv: []string{"A=1"}, Rlimits: []string{"NOFILE=77"}}
	uid := os.Geteuid()
	if uid == 0 {
		proc.User, uid = "65534", 65534
	}
	want := fmt.Sprintf("A=1 LEAKED= nofile=77 uid=%d", uid)
	opts := sandbox.Options{Mode: sandbox.ModeRWX, DataDir: t.TempDir(), Process: proc}
	cmd, err := opts.CommandContext(context.Background(), "/bin/sh", "-c",
		`printf '%s' "A=$A LEAKED=$LEAKED nofile=$(ulimit -n) uid=$(id -u)"`)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := sandbox.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v (%s)", err, stderr.String())
	}
	if stdout.String() != want {
		t.Errorf("rwx command saw %q, want %q (%s)", stdout.String(), want, stderr.String())
	}
}
