package nsexec

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestExecHintFIFONoBlock: a FIFO swapped in where the program was after
// its execve failed (ENOEXEC) is read without waiting, even with a writer
// holding it open and writing nothing: the hint must not hang the launch.
func TestExecHintFIFONoBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prog")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer that writes nothing
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	done := make(chan string, 1)
	go func() { done <- execHint(fifo, unix.ENOEXEC) }()
	select {
	case h := <-done:
		if h != "" {
			t.Errorf("hint %q for an empty FIFO", h)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("execHint blocks on a FIFO")
	}
}
