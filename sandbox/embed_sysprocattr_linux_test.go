package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// helperEnv marks a run of the test binary as TestReplacedSysProcAttr's
// helper.
const helperEnv = "OMEGA_TEST_SYSPROCATTR_HELPER"

// TestReplacedSysProcAttr: an embedder that replaces cmd.SysProcAttr (a
// common idiom: &syscall.SysProcAttr{Setpgid: true}, to kill a process
// group on timeout) dropped the namespaces it carries, and the init stage
// set the sandbox up in the caller's own: as a user, the mounts failed
// and the program ran with only a warning, reading ~/.ssh; as root, the
// mounts succeeded there, leaving the caller's whole tree read-only and
// ~/.ssh covered after the run. The init stage now refuses (125) before
// anything. As root the case runs in a throwaway mount namespace
// (unshare), so that a failure cannot reach this machine's mounts.
func TestReplacedSysProcAttr(t *testing.T) {
	if testing.Short() {
		t.Skip("starts confined processes")
	}
	if os.Getenv(helperEnv) == "" && os.Geteuid() == 0 {
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("as root this needs unshare(1), to keep a failure off the host's mounts")
		}
		cmd := exec.Command(unshare, "--mount", "--propagation", "private", os.Args[0], "-test.run=^TestReplacedSysProcAttr$", "-test.v")
		cmd.Env = append(os.Environ(), helperEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestReplacedSysProcAttr") {
			t.Errorf("helper in its own mount namespace: %v\n%s", err, out)
		}
		return
	}
	home, err := os.MkdirTemp("/var/tmp", "omega-sysprocattr-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_test"), []byte("SECRET"), 0o600)
	cmd, err := sandbox.Command("sh", sandbox.ModeSandbox, filepath.Join(home, "data"), "-c", `cat "$HOME/.ssh/id_test"; echo ran`)
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := sandbox.Start(cmd); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != sandbox.ExitLauncher || strings.Contains(out.String(), "ran") ||
		strings.Contains(out.String(), "SECRET") || !strings.Contains(out.String(), "SysProcAttr") {
		t.Errorf("%v, output %q; want 125 naming SysProcAttr before the program runs", err, out.String())
	}
	if err := os.WriteFile(filepath.Join(home, "after"), nil, 0o600); err != nil {
		t.Errorf("the caller's tree after the launch: %v", err)
	}
}
