package sandbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
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
// grandchild that writes into the data dir when let go, and checks from
// outside that the write never happens: the whole tree is killed, not
// the program alone. The grandchild is let go only once Wait has
// returned, and a survivor is waited for through the stdout pipe it
// would still hold: no sleep on either side (with a grandchild that wrote
// a second after "started", a cancel that a loaded machine delayed past
// that second failed the test).
func cancelOne(t *testing.T, i int) {
	dataDir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	marker := filepath.Join(dataDir, "workspace", "survived")
	release := filepath.Join(dataDir, "workspace", "release")
	// The bound (30 s) only ends a run whose cancel kills nothing.
	cmd, err := sandbox.CommandContext(ctx, "sh", sandbox.ModeSandbox, dataDir, "-c",
		`(n=0; until [ -e "$2" ] || [ $n -ge 300 ]; do sleep 0.1; n=$((n+1)); done; echo x > "$1") & echo started; wait`,
		"sh", marker, release)
	if err != nil {
		t.Errorf("cancel %d: %v", i, err)
		return
	}
	out, w, err := os.Pipe()
	if err != nil {
		t.Errorf("cancel %d: %v", i, err)
		return
	}
	defer out.Close()
	cmd.Stdout = w
	err = sandbox.Start(cmd)
	w.Close()
	if err != nil {
		t.Errorf("cancel %d: Start: %v", i, err)
		return
	}
	r := bufio.NewReader(out)
	line, _ := r.ReadString('\n')
	cancel()
	err = cmd.Wait()
	if line != "started\n" || err == nil {
		t.Errorf("cancel %d: read %q, Wait %v; want \"started\" and an error", i, line, err)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Errorf("cancel %d: %v", i, err)
	}
	// EOF once no process holds the pipe: at once when the tree died,
	// after its write when the grandchild outlived the cancel.
	out.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Errorf("cancel %d: the pipe stayed open: %v", i, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("cancel %d: the grandchild outlived the cancelled sandbox and wrote %s", i, marker)
	}
}
