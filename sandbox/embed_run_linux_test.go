package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestRunLeavesEmbedderChildren: Options.Run in rx where it stays the
// parent (a program named claude: the state sync) leaves the embedding
// process's other children alone. As the CLI's leftovers' subreaper it
// reaped them behind os/exec's back and killed them at the end, a
// concurrent launch's program with them. A helper process runs Run, as
// rx would replace the test binary otherwise.
func TestRunLeavesEmbedderChildren(t *testing.T) {
	if os.Getenv("OMEGA_TEST_EMBED_RUN") != "" {
		embedRunHelper()
		return
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	home := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunLeavesEmbedderChildren$")
	cmd.Env = append(os.Environ(), "OMEGA_TEST_EMBED_RUN="+home, "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "code=0 err=<nil> alive=true waited=signal: killed") {
		t.Fatalf("the embedder's own child after Run: %v\n%s", err, out)
	}
}

// embedRunHelper starts a child of its own, then Runs a program named
// claude in rx, and says whether its child outlived Run and could still
// be waited for by os/exec.
func embedRunHelper() {
	home := os.Getenv("OMEGA_TEST_EMBED_RUN")
	sibling := exec.Command("sleep", "30")
	if err := sibling.Start(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	claude := filepath.Join(home, "claude")
	if b, err := os.ReadFile("/bin/true"); err != nil || os.WriteFile(claude, b, 0o755) != nil {
		fmt.Println("copying /bin/true:", err)
		os.Exit(1)
	}
	code, err := sandbox.Options{Mode: sandbox.ModeRX, Home: home, DataDir: filepath.Join(home, ".omega")}.Run(claude)
	alive := syscall.Kill(sibling.Process.Pid, 0) == nil
	sibling.Process.Kill()
	fmt.Printf("code=%d err=%v alive=%v waited=%v\n", code, err, alive, sibling.Wait())
	os.Exit(0)
}
