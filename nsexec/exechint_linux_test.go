package nsexec

import (
	"os"
	"path/filepath"
	"strings"
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

// TestShebangHint: the interpreter is read as the kernel reads it, so a
// #! line with a Windows line ending is explained by its carriage return.
func TestShebangHint(t *testing.T) {
	cases := []struct{ rest, want string }{
		{"/bin/sh\r\necho hi\r\n", "its #! line ends in a carriage return (Windows line endings), so its interpreter is /bin/sh\\r,"},
		{" \t/no/such/interp -x\n", "its interpreter /no/such/interp does not"},
		{"/no/such\targ\n", "its interpreter /no/such does not"},
		{"/bin/sh -e\n", ""},
		{"/bin/sh", ""},
		{"\n", ""},
	}
	for _, c := range cases {
		if got := shebangHint(c.rest); (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("shebangHint(%q) = %q, want %q", c.rest, got, c.want)
		}
	}
}
