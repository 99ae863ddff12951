package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omega-run/omega-run/sandbox"
)

// TestMain gives the test binary the same init-stage dispatch that an
// embedding program's main needs as its first statement.
func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// Example confines a shell to the default sandbox with its own data dir,
// started with Start as the package recommends.
func Example() {
	dataDir, err := os.MkdirTemp("", "omega-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dataDir)

	cmd, err := sandbox.Command("sh", sandbox.ModeSandbox, dataDir, "-c", "echo hello from $OMEGA_SANDBOX mode")
	if err != nil {
		log.Fatal(err) // a *sandbox.Error: its Code is 125, 126 or 127
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := sandbox.Start(cmd); err != nil {
		log.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		log.Fatal(err)
	}
	fmt.Print(out.String())
	// Output: hello from sandbox mode
}

// ExampleOptions uses the options form: rx mode and no network.
func ExampleOptions() {
	dir, err := os.MkdirTemp("", "omega-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	opts := sandbox.Options{Mode: sandbox.ModeRX, DataDir: dir, Net: sandbox.NetNone}
	cmd, err := opts.CommandContext(context.Background(), "sh", "-c", "echo $OMEGA_SANDBOX_NETWORK_DISABLED")
	if err != nil {
		log.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output: 1
}

// ExampleOptions_CommandContext reads a program's exit status, and
// stops a program that runs too long: in sandbox mode the context kills
// its whole process tree. A context already done refuses the start with
// its error, as exec.CommandContext's does, so Start's error is looked at
// with the context's too: a short deadline may pass before the start.
func ExampleOptions_CommandContext() {
	dir, err := os.MkdirTemp("", "omega-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	opts := sandbox.Options{DataDir: dir}
	run := func(timeout time.Duration, script string) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd, err := opts.CommandContext(ctx, "sh", "-c", script)
		if err != nil {
			log.Fatal(err)
		}
		if err = sandbox.Start(cmd); err == nil {
			err = cmd.Wait()
		}
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			fmt.Println("stopped:", ctx.Err())
		case errors.As(err, &ee):
			fmt.Println("exit status", ee.ExitCode())
		case err != nil:
			log.Fatal(err)
		}
	}
	run(time.Minute, "exit 3")
	run(100*time.Millisecond, "sleep 60 & sleep 60")
	// Output:
	// exit status 3
	// stopped: context deadline exceeded
}

// ExampleOptions_CommandContext_extraFiles hands the program a pipe as
// fd 3: the command's own ExtraFiles carry the launch, so files go in
// Options.ExtraFiles.
func ExampleOptions_CommandContext_extraFiles() {
	dir, err := os.MkdirTemp("", "omega-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	r, w, err := os.Pipe()
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	opts := sandbox.Options{DataDir: dir, ExtraFiles: []*os.File{w}}
	cmd, err := opts.CommandContext(context.Background(), "sh", "-c", "echo result >&3")
	if err != nil {
		log.Fatal(err)
	}
	err = sandbox.Start(cmd)
	w.Close() // the program has its own copy now
	if err != nil {
		log.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(got))
	// Output: result
}

// ExampleOptions_CommandContext_limits runs builds at once, each in a
// cgroup of its own with at most 512 MiB and 256 processes (Linux; root
// or a delegated cgroup). Wait returns once the group is gone, with an
// error wrapping ErrOOMKilled where a build went past its memory.
func ExampleOptions_CommandContext_limits() {
	var wg sync.WaitGroup
	for _, dir := range []string{"/src/a", "/src/b"} {
		wg.Go(func() {
			opts := sandbox.Options{
				Mode: sandbox.ModeRX, AllowWrite: []string{dir}, Workdir: dir,
				Process: sandbox.Process{Memory: "512M", Pids: "256"},
			}
			cmd, err := opts.CommandContext(context.Background(), "make")
			if err != nil {
				log.Print(err) // no cgroup here, or bad limits: 125
				return
			}
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := sandbox.Start(cmd); err != nil {
				log.Print(err)
				return
			}
			if err := sandbox.Wait(cmd); errors.Is(err, sandbox.ErrOOMKilled) {
				log.Printf("%s: out of memory", dir)
			} else if err != nil {
				log.Printf("%s: %v", dir, err)
			}
		})
	}
	wg.Wait()
}
