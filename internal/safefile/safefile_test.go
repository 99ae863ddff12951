//go:build linux

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRead: what a confined program could leave in a settings file's
// place is refused at once, without blocking or reading without end;
// what a caller names (/dev/null, a pipe) is read.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	os.WriteFile(file, []byte("mode = 1\n"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 65), 0o600)
	cases := []struct {
		path, want string
		kind       Kind
	}{
		{file, "", Regular},
		{file, "", Named},
		{fifo, "not a regular file: it is a FIFO", Regular},
		{fifo, "no writer opened the pipe", Named}, // no writer: not an empty file
		{zero, "not a regular file: it is a device", Regular},
		{zero, "not a regular file: it is a device", Named},
		{os.DevNull, "not a regular file: it is a device", Regular},
		{os.DevNull, "", Named},
		{big, "larger than 64 bytes", Regular},
		{dir, "is a directory", Regular},
		{filepath.Join(dir, "missing"), "no such file", Regular},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases, struct {
			path, want string
			kind       Kind
		}{"/proc/self/status", "it is a kernel file", Named})
	}
	defer func(old time.Duration) { pipeWait = old }(pipeWait)
	pipeWait = 200 * time.Millisecond
	for _, c := range cases {
		start := time.Now()
		_, err := Read(c.path, 64, c.kind)
		switch {
		case time.Since(start) > 5*time.Second:
			t.Errorf("%s (%d): took %v", c.path, c.kind, time.Since(start))
		case c.want == "" && err != nil:
			t.Errorf("%s (%d): %v", c.path, c.kind, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s (%d): %v, want %q", c.path, c.kind, err, c.want)
		}
	}
	// A writer that opens the FIFO a moment later is waited for.
	go func() {
		time.Sleep(50 * time.Millisecond)
		os.WriteFile(fifo, []byte("late"), 0o600)
	}()
	if data, err := Read(fifo, 64, Named); err != nil || string(data) != "late" {
		t.Errorf("fifo with a late writer: %q, %v; want its content", data, err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 64, Regular); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v, want it to wrap ErrNotExist", err)
	}
}
