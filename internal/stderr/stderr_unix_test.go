//go:build unix

package stderr

import (
	"io"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWriterTerminalSafe: whatever a line holds (an encoder's raw C1
// control, bidi override or byte that is not UTF-8, or an escape sequence
// a message forgot to escape), what reaches fd 2 has none of it raw, the
// line's end kept; the caller is told the whole line went.
func TestWriterTerminalSafe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Dup2(int(w.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	line := "{\"msg\":\"a\u009b2J\u202e \x9b\x1b]52;c;x\a\"}\r\n"
	n, werr := Writer.Write([]byte(line))
	unix.Dup2(saved, 2)
	unix.Close(saved)
	w.Close()
	got, _ := io.ReadAll(r)
	want := `{"msg":"a\u009b2J\u202e \ufffd\u001b]52;c;x\u0007"}` + "\r\n"
	if werr != nil || n != len(line) || string(got) != want {
		t.Errorf("Write = %d, %v; fd 2 got %q, want %q", n, werr, got, want)
	}
}
