package sandbox

import (
	"net"
	"os"
	"testing"
)

// TestHandsInetSocket: an internet socket among the handed-over files
// is found, a unix socket or a pipe is not.
func TestHandsInetSocket(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	unixL, err := net.Listen("unix", t.TempDir()+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer unixL.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file := func(l net.Listener) *os.File {
		f, err := l.(interface{ File() (*os.File, error) }).File()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, c := range []struct {
		name  string
		files []*os.File
		want  bool
	}{
		{"pipe", []*os.File{r}, false},
		{"unix", []*os.File{file(unixL)}, false},
		{"tcp", []*os.File{w, file(tcp)}, true},
	} {
		if got := (&plan{extraFiles: c.files}).handsInetSocket(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
