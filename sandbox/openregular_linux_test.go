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
	opened := blockedFIFO(t, fifo)
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
	if opened() {
		t.Error("the FIFO's writer was released: it was opened")
	}
}

// blockedFIFO makes a FIFO at path with a writer blocked on it until a
// reader opens it; opened, called after the code under test, says
// whether that happened (and releases the writer either way).
func blockedFIFO(t *testing.T, path string) (opened func() bool) {
	t.Helper()
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil { // blocks until a reader opens it
			close(done)
			f.Close()
		}
	}()
	time.Sleep(50 * time.Millisecond)
	return func() bool {
		time.Sleep(50 * time.Millisecond)
		select {
		case <-done:
			return true
		default:
			if f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0); err == nil { // release it
				f.Close()
			}
			return false
		}
	}
}

// TestReadRegularNotProc: a link to a file of /proc (go's settings file
// named by the program's user, as /proc/kmsg, whose read as root takes
// the kernel log's lines from syslog) is not read: those files are
// regular, so the file type alone lets them through.
func TestReadRegularNotProc(t *testing.T) {
	link := filepath.Join(t.TempDir(), "env")
	os.Symlink("/proc/self/status", link)
	if b, err := readRegular(link, false, 64<<10); err == nil {
		t.Errorf("/proc/self/status was read (%d bytes)", len(b))
	}
}
