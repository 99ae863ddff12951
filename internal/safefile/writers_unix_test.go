//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOthersCanWrite: a settings file that its group or every user may
// write, or may replace through its directory, is refused with its
// owner, mode and the chmod that fixes it (sshd's StrictModes): a root's
// config.toml of mode 0664 let the group ask for mode = "rwx". A sticky
// directory (/tmp) and /dev/null are fine.
func TestOthersCanWrite(t *testing.T) {
	cases := []struct {
		name           string
		dirMode, mode  os.FileMode
		fifo           bool
		want, wantMore string
	}{
		{"own", 0o755, 0o644, false, "", ""},
		{"private", 0o700, 0o600, false, "", ""},
		{"group-writable", 0o755, 0o664, false, "mode 0664) can be written by its group (", "chmod g-w "},
		{"world-writable", 0o755, 0o646, false, "mode 0646) can be written by every user", "chmod o-w "},
		{"both", 0o755, 0o666, false, "can be written by its group (", "and every user, not only by its owner, and it decides what a launch may do: chmod go-w "},
		{"world-writable fifo", 0o755, 0o622, true, "can be written by its group", "chmod go-w "},
		{"sticky dir", os.ModeSticky | 0o777, 0o644, false, "", ""},
		{"world-writable dir", 0o777, 0o644, false, "mode 0777), the directory holding f, can be written by its group", "who could replace the file, which decides what a launch may do: chmod go-w "},
		{"group-writable dir", 0o775, 0o600, false, "the directory holding f, can be written by its group", "(or chmod +t "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			os.Mkdir(dir, 0o700)
			f := filepath.Join(dir, "f")
			if c.fifo {
				if err := syscall.Mkfifo(f, 0o600); err != nil {
					t.Fatal(err)
				}
				go func() { os.WriteFile(f, []byte("x"), 0) }()
			} else if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chmod(f, c.mode)
			os.Chmod(dir, c.dirMode)
			_, err := Read(f, 64, Named)
			if c.want == "" {
				if err != nil {
					t.Errorf("%v, want it read", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.wantMore) {
				t.Errorf("%v, want %q … %q", err, c.want, c.wantMore)
			}
		})
	}
	if _, err := Read(os.DevNull, 64, Named); err != nil {
		t.Errorf("/dev/null (mode 0666): %v", err)
	}
}
