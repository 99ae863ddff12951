//go:build linux

package e2e

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFallbackSignalScopingErratum: on a kernel of Landlock ABI 6 or 7
// that does not report the fix of the signal scoping erratum (early 6.12
// LTS kernels; the probe's landlock-abi N:0 answers the errata query with
// none), go-landlock, and the C stage's plan after it, enforce ABI 5: no
// signal or abstract unix socket scoping. Nothing said so, and an rx
// program killed a host process of the same user. Now the warning names
// the lost scoping and why, --fail-closed refuses (checked from outside
// by the host process still being alive), and check, which said sandbox
// mode got everything (exit 0), exits 1.
func TestFallbackSignalScopingErratum(t *testing.T) {
	for _, abi := range []string{"6:0", "7:0"} {
		t.Run(abi, func(t *testing.T) {
			w := newWorld(t, nobody)
			host := exec.Command("sleep", "30")
			host.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(nobody.uid), Gid: uint32(nobody.gid)}}
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { host.Wait(); close(exited) }()
			t.Cleanup(func() { host.Process.Kill(); <-exited })
			pid := strconv.Itoa(host.Process.Pid)
			fake := []string{probe, "landlock-abi", abi}
			r := w.under(fake, "--fail-closed", "--mode", "rx", "--", "/bin/kill", pid)
			if r.code != 125 || !strings.Contains(r.stderr, "signal scoping erratum") {
				t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125 naming the erratum", r.code, r.stdout, r.stderr)
			}
			select {
			case <-exited:
				t.Fatal("the host process was killed under --fail-closed")
			case <-time.After(200 * time.Millisecond):
			}
			r = w.under(fake, "--mode", "rx", "--", "/bin/true")
			if !strings.Contains(r.stderr, "lacks signal and abstract unix socket scoping") || !strings.Contains(r.stderr, "signal scoping erratum") {
				t.Errorf("exit %d, stderr %q; want the lost scoping and its cause said", r.code, r.stderr)
			}
			// check exits 0 only when sandbox mode gets everything.
			r = w.under(fake, "check")
			if r.code != 1 || !strings.Contains(r.stdout, "signal scoping erratum") {
				t.Errorf("check: exit %d, stdout %q; want 1 and the erratum named", r.code, r.stdout)
			}
		})
	}
}
