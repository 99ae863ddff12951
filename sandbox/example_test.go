package sandbox_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestMain gives the test binary the same init-stage dispatch that an
// embedding program's main needs as its first statement.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// Example confines a shell to the default sandbox with its own data dir.
func Example() {
	dataDir, err := os.MkdirTemp("", "omega-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dataDir)

	cmd, err := sandbox.Command("sh", sandbox.ModeSandbox, dataDir, "-c", "echo hello from $OMEGA_SANDBOX mode")
	if err != nil {
		log.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output: hello from sandbox mode
}

// ExampleOptions uses the options form: rx mode and no network.
func ExampleOptions() {
	dir, _ := os.MkdirTemp("", "omega-example-")
	defer os.RemoveAll(dir)
	opts := sandbox.Options{Mode: sandbox.ModeRX, DataDir: dir, Net: sandbox.NetNone}
	cmd, err := opts.CommandContext(context.Background(), "sh", "-c", "echo $OMEGA_SANDBOX_NETWORK_DISABLED")
	if err != nil {
		log.Fatal(err)
	}
	out, _ := cmd.Output()
	fmt.Print(string(out))
	// Output: 1
}
