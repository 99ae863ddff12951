package sandbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omega-run/omega-run/sandbox"
)

// TestConcurrentCommands is an agent harness's use: confined commands
// in every mode started from many goroutines at once, each with its own
// captured output and exit status, while others are cancelled
// mid-run. Run it with -race.
func TestConcurrentCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts confined processes")
	}
	t.Setenv("HOME", t.TempDir())
	modes := []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX, sandbox.ModeRWX}
	var wg sync.WaitGroup
	for i := range 9 {
		wg.Go(func() { runOne(t, modes[i%3], i) })
	}
	for i := range 3 {
		wg.Go(func() { cancelOne(t, i) })
	}
	wg.Wait()
}

// runOne runs one command that prints i on stdout and stderr and exits
// with status i.
func runOne(t *testing.T, mode sandbox.Mode, i int) {
	cmd, err := sandbox.Command("sh", mode, t.TempDir(), "-c", `echo out$1; echo err$1 >&2; exit $1`, "sh", fmt.Sprint(i))
	if err != nil {
		t.Errorf("%d (%s): %v", i, mode, err)
		return
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := sandbox.Start(cmd); err != nil {
		t.Errorf("%d (%s): Start: %v", i, mode, err)
		return
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if (i == 0) != (err == nil) || (i != 0 && (!errors.As(err, &ee) || ee.ExitCode() != i)) {
		t.Errorf("%d (%s): %v; want exit status %d", i, mode, err, i)
	}
	if stdout.String() != fmt.Sprintf("out%d\n", i) || !strings.HasSuffix(stderr.String(), fmt.Sprintf("err%d\n", i)) {
		t.Errorf("%d (%s): stdout %q, stderr %q", i, mode, stdout.String(), stderr.String())
	}
}

// cancelOne cancels a sandbox-mode command once it has started a
// grandchild that would write into the data dir a second later, and
// checks from outside that the write never happens: the whole tree is
// killed, not the program alone.
func cancelOne(t *testing.T, i int) {
	dataDir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	marker := filepath.Join(dataDir, "workspace", "survived")
	cmd, err := sandbox.CommandContext(ctx, "sh", sandbox.ModeSandbox, dataDir, "-c",
		`(sleep 1; echo x > "$1") & echo started; wait`, "sh", marker)
	if err != nil {
		t.Errorf("cancel %d: %v", i, err)
		return
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Errorf("cancel %d: %v", i, err)
		return
	}
	if err := sandbox.Start(cmd); err != nil {
		t.Errorf("cancel %d: Start: %v", i, err)
		return
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	cancel()
	err = cmd.Wait()
	if line != "started\n" || err == nil {
		t.Errorf("cancel %d: read %q, Wait %v; want \"started\" and an error", i, line, err)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("cancel %d: the grandchild outlived the cancelled sandbox and wrote %s", i, marker)
	}
}
