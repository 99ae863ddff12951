package sandbox_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestEmbeddedCommandConfines runs a real program through the library in
// each mode and checks from outside what it could write.
func TestEmbeddedCommandConfines(t *testing.T) {
	if testing.Short() {
		t.Skip("starts confined processes")
	}
	base, err := os.MkdirTemp("/var/tmp", "omega-embed-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	t.Setenv("HOME", base)
	for _, c := range []struct {
		mode         sandbox.Mode
		outsideWrite bool
	}{{sandbox.ModeRWX, true}, {sandbox.ModeRX, false}, {sandbox.ModeSandbox, false}} {
		t.Run(string(c.mode), func(t *testing.T) {
			dataDir := filepath.Join(base, "data-"+string(c.mode))
			outside := filepath.Join(base, "outside-"+string(c.mode))
			os.MkdirAll(filepath.Join(dataDir, "workspace"), 0o700)
			cmd, err := sandbox.CommandContext(context.Background(), "sh", c.mode, dataDir, "-c",
				`echo in > "$1/workspace/f"; echo out > "$2"`, "sh", dataDir, outside)
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Run()
			var xe *exec.ExitError
			if err != nil && !errors.As(err, &xe) {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dataDir, "workspace", "f")); err != nil {
				t.Errorf("write in the data dir failed: %v (%s)", err, stderr.String())
			}
			if _, err := os.Stat(outside); (err == nil) != c.outsideWrite {
				t.Errorf("outside write happened: %v, want %v (%s)", err == nil, c.outsideWrite, stderr.String())
			}
		})
	}
}

// TestEmbeddedErrors: bad input fails in Command, before anything starts,
// with the exit code the CLI would use.
func TestEmbeddedErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	_, err := sandbox.Command("no-such-program-xyz", sandbox.ModeSandbox, "")
	var se *sandbox.Error
	if !errors.As(err, &se) || se.Code != sandbox.ExitNotFound {
		t.Errorf("missing program: %v, want code 127", err)
	}
	_, err = sandbox.Options{Mode: sandbox.ModeRX, AllowWrite: []string{"/no/such"}}.CommandContext(context.Background(), "true")
	if !errors.As(err, &se) || se.Code != sandbox.ExitLauncher {
		t.Errorf("missing --allow-write: %v, want code 125", err)
	}
}

// TestEmbeddedHiddenDir: an embedder's cmd.Dir inside a directory the
// sandbox hides (~/.ssh) does not let the program read it through its
// working directory, which the init stage would otherwise keep open: the
// launch is refused with 125, and the key is not printed.
func TestEmbeddedHiddenDir(t *testing.T) {
	if testing.Short() || os.Geteuid() != 0 {
		t.Skip("starts confined processes as root")
	}
	home, err := os.MkdirTemp("/var/tmp", "omega-embed-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	t.Setenv("HOME", home)
	ssh := filepath.Join(home, ".ssh")
	os.MkdirAll(ssh, 0o700)
	os.WriteFile(filepath.Join(ssh, "id_ed25519"), []byte("SECRET"), 0o600)
	os.MkdirAll(filepath.Join(home, ".omega", "workspace"), 0o700)
	cmd, err := sandbox.Options{}.CommandContext(context.Background(), "cat", "id_ed25519")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = ssh
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "SECRET") || cmd.ProcessState.ExitCode() != 125 {
		t.Errorf("exit %d, output %q; want 125 and no key", cmd.ProcessState.ExitCode(), out)
	}
}
