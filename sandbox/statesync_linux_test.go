package sandbox

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestAtomicWriteSwappedTemp: a confined program (another sandbox sharing
// ~/.claude) can watch the directory and rename a symlink over the
// launcher's temporary file between its creation and its chmod. The mode
// must land on the file written, never where the link points: the
// launcher runs outside, as the caller (root: any file).
func TestAtomicWriteSwappedTemp(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	like := filepath.Join(dir, "like")
	if err := os.WriteFile(like, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skip("inotify:", err)
	}
	events := os.NewFile(uintptr(fd), "inotify")
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := events.Read(buf)
			if err != nil {
				return
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				size := int(binary.NativeEndian.Uint32(buf[off+12:])) // struct inotify_event's len
				name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+size]), "\x00")
				off += unix.SizeofInotifyEvent + size
				if strings.Contains(name, ".omega-") {
					link := filepath.Join(dir, "link")
					_ = os.Symlink(victim, link)
					_ = os.Rename(link, filepath.Join(dir, name))
				}
			}
		}
	}()
	data := make([]byte, 4<<20) // a large state file widens the window
	for i := 0; i < 30; i++ {
		_ = atomicWrite(filepath.Join(dir, "work"), data, attrsOf(like))
		if fi, err := os.Stat(victim); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("round %d: the victim's mode is %v (%v); want 0600", i, fi.Mode().Perm(), err)
		}
	}
	events.Close()
	<-done
}
