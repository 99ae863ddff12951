//go:build linux

package landlock

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWrittenStreams: only regular files open for writing are named; a
// memfd, whose rule Landlock refuses, and an ioctl-only fd are left out.
func TestWrittenStreams(t *testing.T) {
	if ABI() < 1 {
		t.Skip("no Landlock")
	}
	dir := t.TempDir()
	open := func(name string, flag int) int {
		f, err := os.OpenFile(filepath.Join(dir, name), flag|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return int(f.Fd())
	}
	w, rw, ro := open("w", os.O_WRONLY), open("rw", os.O_RDWR), open("ro", os.O_RDONLY)
	appended := open("a", os.O_WRONLY|os.O_APPEND)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	mfd, err := unix.MemfdCreate("stream", unix.MFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(mfd)
	// Access mode 3: neither read nor write (ioctl only).
	ioctlOnly, err := unix.Open(filepath.Join(dir, "w"), 3|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(ioctlOnly)
	got := WrittenStreams(w, rw, ro, appended, int(pw.Fd()), mfd, ioctlOnly, 9999)
	var want []string
	for _, fd := range []int{w, rw, appended} {
		want = append(want, "/proc/self/fd/"+strconv.Itoa(fd))
	}
	if !slices.Equal(got, want) {
		t.Errorf("WrittenStreams = %q, want %q", got, want)
	}
}
