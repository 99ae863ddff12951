package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
	"golang.org/x/sys/unix"
)

// TestOutputWithFileStdout: an embedder whose own stdout is a file (a
// service logging to one, nohup) captures a command's output through a
// pipe. The launcher looks at its own fds for the stream rules; the
// init stage then finds a pipe where the launcher saw a file, which
// failed every such command with 125.
func TestOutputWithFileStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real sandbox")
	}
	log, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	saved, err := unix.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(saved)
	for _, mode := range []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX} {
		if err := unix.Dup2(int(log.Fd()), 1); err != nil {
			t.Fatal(err)
		}
		cmd, err := sandbox.Command("sh", mode, t.TempDir(), "-c", "echo captured")
		unix.Dup2(saved, 1)
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || string(out) != "captured\n" {
			t.Errorf("%s: output %q, err %v, stderr %q", mode, out, err, stderr.String())
		}
	}
}
