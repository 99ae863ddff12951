//go:build linux

package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoHomeSaid: in a root with no /etc/passwd and no HOME (a scratch
// image under a runtime that sets none, env -i), the static build cannot
// find home, which it needs for ~/.claude and the credential stores even
// with --data-dir: the error says to set HOME, not to give the
// --data-dir that is already there.
func TestNoHomeSaid(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root, like TestConfinesInEmptyRoot")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed (make deps installs bubblewrap)")
	}
	root := t.TempDir()
	os.Chmod(root, 0o755)
	for _, d := range []string{"proc", "dev"} {
		os.Mkdir(filepath.Join(root, d), 0o755)
	}
	copyFile(t, staticBinary(t), filepath.Join(root, "omega-run"))
	cmd := exec.Command(bwrap, "--bind", root, "/", "--bind", "/proc", "/proc", "--chdir", "/", "--die-with-parent", "--",
		"/omega-run", "--data-dir", "/data", "--", "/omega-run", "--version")
	cmd.Env = []string{}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 125 {
		t.Fatalf("exit %v, want 125; output %s", err, out)
	}
	if s := string(out); !strings.Contains(s, "set HOME") || strings.Contains(s, "or --data-dir") {
		t.Errorf("output %q: want it to say set HOME, and not suggest the --data-dir given", s)
	}
}
