package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPrivateTmpThirdUser: checkDataDirOwner judges the data dir before
// anything is made, through the links its owner (the --user) may
// re-point since, at a third user's directory: the /tmp root made there
// must not then be made 1777 (and the program let in).
func TestPrivateTmpThirdUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (--user)")
	}
	third := t.TempDir()
	if err := os.Chown(third, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(third, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if w, err := privateTmpMode(tmp, 65534); err == nil {
		t.Errorf("privateTmpMode in uid 12345's directory for --user 65534: no error (warning %q)", w)
	}
	var st unix.Stat_t
	if err := unix.Stat(tmp, &st); err != nil || st.Mode&0o7777 != 0o700 || st.Uid != 0 {
		t.Errorf("tmp: mode %o, uid %d (%v); want it left root's, 0700", st.Mode&0o7777, st.Uid, err)
	}
}
