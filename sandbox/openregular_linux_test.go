package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReadRegularNeverOpens: readRegular (the state sync's and the Claude
// Code report's reads, which follow a dotfile manager's links) does not
// open what is not a regular file, directly or through a link: a FIFO's
// blocked writer stays blocked (opening a device may have effects too).
func TestReadRegularNeverOpens(t *testing.T) {
	dir := t.TempDir()
	reg, fifo := filepath.Join(dir, "reg"), filepath.Join(dir, "fifo")
	os.WriteFile(reg, []byte("{}"), 0o644)
	os.Symlink(reg, filepath.Join(dir, "to-reg"))
	os.Symlink(fifo, filepath.Join(dir, "to-fifo"))
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	opened := make(chan struct{})
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // blocks until a reader opens it
			close(opened)
			f.Close()
		}
	}()
	time.Sleep(50 * time.Millisecond)
	if b, err := readRegular(filepath.Join(dir, "to-reg"), false, 64); err != nil || string(b) != "{}" {
		t.Errorf("a link to a regular file: %q, %v", b, err)
	}
	if _, err := readRegular(filepath.Join(dir, "to-reg"), true, 64); err == nil || err.Error() != "it is a symlink" {
		t.Errorf("a link, not followed: %v", err)
	}
	for _, p := range []string{fifo, filepath.Join(dir, "to-fifo")} {
		if _, err := readRegular(p, false, 64); err == nil {
			t.Errorf("%s was read", p)
		}
	}
	time.Sleep(50 * time.Millisecond)
	select {
	case <-opened:
		t.Error("the FIFO's writer was released: it was opened")
	default:
		if f, err := os.OpenFile(fifo, os.O_RDONLY|unix.O_NONBLOCK, 0); err == nil { // release it
			defer f.Close()
		}
	}
}
