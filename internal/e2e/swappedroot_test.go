//go:build linux

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSwappedRootNotFollowed: a writable root swapped for a symlink
// after the launcher resolved it and the init stage bound it (strace
// holds the stage at its sethostname, between its mounts and its
// Landlock ruleset) must not give the program write access where the
// link points. The target is a FIFO outside the writable set: a
// read-only mount does not stop writing one, Landlock does. The C stage
// opened the root following symlinks and let the write through; the Go
// stage refused the launch. Both refuse now.
func TestSwappedRootNotFollowed(t *testing.T) {
	strace := needStrace(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			fifo := filepath.Join(w.outside, "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(fifo, u.uid, u.gid); err != nil {
				t.Fatal(err)
			}
			// O_RDWR: the program's open for writing does not block, and
			// what it writes waits here.
			fd, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			trace := filepath.Join(w.home, "trace")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c := w.cmdOf(ctx, strace, "-f", "-qq", "-o", trace, "-e", "trace=sethostname",
				"-e", "inject=sethostname:delay_enter=3000000", bin, "--hostname", "h", "--allow-write", w.extra,
				"--", "/bin/sh", "-c", "echo pwned > "+filepath.Join(w.extra, "fifo"))
			var stderr strings.Builder
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			for !strings.Contains(readOr(trace), "sethostname(") {
				if ctx.Err() != nil {
					t.Fatal("the init stage never called sethostname")
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := os.Rename(w.extra, w.extra+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(w.outside, w.extra); err != nil {
				t.Fatal(err)
			}
			_ = c.Wait()
			code := c.ProcessState.ExitCode()
			buf := make([]byte, 64)
			n, _ := syscall.Read(fd, buf)
			n = max(n, 0)
			if n > 0 || code != 125 || !strings.Contains(stderr.String(), "a symlink appeared on its path") {
				t.Errorf("exit %d, stderr %q, the FIFO outside got %q; want 125 saying a symlink appeared, nothing written",
					code, stderr.String(), buf[:n])
			}
		})
	}
}

// readOr is the file's content, "" when it cannot be read.
func readOr(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}
