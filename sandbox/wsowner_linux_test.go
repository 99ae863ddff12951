package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOwnLikeDataDirMoved: the data dir's owner, who can move it (it lies
// in their home), swaps in a link to another dir holding a "workspace"
// (a service's, another user's) while root gives the new workspace away;
// root still gives away only the workspace it made, in the data dir
// whose owner it read.
func TestOwnLikeDataDirMoved(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	tmp := t.TempDir()
	data, victim := filepath.Join(tmp, "data"), filepath.Join(tmp, "svc", "workspace")
	for _, d := range []string{filepath.Join(data, "workspace"), victim} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(data, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	ownerRead = func() {
		if err := os.Rename(data, data+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(victim), data); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { ownerRead = func() {} }()
	_ = ownLikeDataDir(filepath.Join(data, "workspace"))
	for path, want := range map[string]uint32{victim: 0, filepath.Join(data+".old", "workspace"): 65534} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if uid := fi.Sys().(*syscall.Stat_t).Uid; uid != want {
			t.Errorf("%s is uid %d, want %d", path, uid, want)
		}
	}
}

// TestDataDirMadeByAnotherUser: root names a data dir that does not
// exist yet below a directory anyone may write (/tmp): checkDataDirOwner
// judges the directory above, root's, and another user makes the data
// dir in between; root then made its workspace, /tmp and config file in
// that user's directory. The owner is looked at again once it exists.
func TestDataDirMadeByAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	open := t.TempDir()
	os.Chmod(open, 0o1777)
	data := filepath.Join(open, "data")
	dataDirChecked = func() {
		if err := os.Mkdir(data, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chown(data, 12345, 12345)
	}
	defer func() { dataDirChecked = func() {} }()
	o := Options{Home: open, DataDir: data}
	if _, err := o.prepare("true", nil); err == nil {
		t.Errorf("the launch took a data dir uid 12345 made: no error")
	}
	if _, err := os.Lstat(filepath.Join(data, "workspace")); err == nil {
		t.Errorf("root made a workspace in uid 12345's directory")
	}
}

// TestDataDirThroughOthersLink: a --user's data dir named through a
// symlink that user owns (in its home) could lead into /etc, which the
// program would get writable and root would put a 1777 /tmp in; root
// refuses it, and takes a root-owned link or the real path.
func TestDataDirThroughOthersLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	tmp := t.TempDir()
	target := filepath.Join(tmp, "etc")
	os.Mkdir(target, 0o755)
	theirs, ours := filepath.Join(tmp, "theirs"), filepath.Join(tmp, "ours")
	os.Symlink(target, theirs)
	os.Symlink(target, ours)
	if err := os.Lchown(theirs, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	p := &plan{}
	for _, c := range []struct {
		dir  string
		fail bool
	}{
		{filepath.Join(theirs, ".omega"), true},
		{theirs, true},
		{filepath.Join(ours, ".omega"), false},
		{filepath.Join(target, ".omega"), false},
	} {
		if err := p.checkDataDirOwner(c.dir); (err != nil) != c.fail {
			t.Errorf("%s: %v, want refused: %v", c.dir, err, c.fail)
		}
	}
}

// TestOwnLikeDataDirThroughOthersLink: the data dir swapped, before root
// opens it, for a symlink of its owner's that leads to a third user's
// directory holding a root-owned "workspace": root must not give that
// one to the third user (it opened the data dir by path, following the
// link, and took the owner of where it led).
func TestOwnLikeDataDirThroughOthersLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	tmp := t.TempDir()
	data, third := filepath.Join(tmp, "data"), filepath.Join(tmp, "third")
	if err := os.MkdirAll(filepath.Join(third, "workspace"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(third, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(third, data); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(data, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := ownLikeDataDir(filepath.Join(data, "workspace")); err == nil {
		t.Error("through uid 65534's symlink: no error")
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(third, "workspace"), &st); err != nil || st.Uid != 0 {
		t.Errorf("the third user's root-owned workspace: uid %d (%v), want it left root's", st.Uid, err)
	}
}

// TestOwnLikeDataDirFound: a workspace of root's found in a data dir of
// another user's goes to that user when empty (a launch killed between
// its mkdir and its chown left it so), and stays root's when it holds
// anything.
func TestOwnLikeDataDirFound(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	for _, c := range []struct {
		name string
		file bool
		want uint32
	}{
		{"empty", false, 65534},
		{"holds a file", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			ws := filepath.Join(data, "workspace")
			if err := os.MkdirAll(ws, 0o700); err != nil {
				t.Fatal(err)
			}
			if c.file {
				if err := os.WriteFile(filepath.Join(ws, "f"), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chown(data, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			if err := ownLikeDataDir(ws); err != nil {
				t.Fatal(err)
			}
			var st syscall.Stat_t
			if err := syscall.Stat(ws, &st); err != nil || st.Uid != c.want {
				t.Errorf("workspace uid %d (%v), want %d", st.Uid, err, c.want)
			}
		})
	}
}
