package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMkdirOneSwappedParent: the data dir swapped for a symlink between
// the mkdir and the chmod (by its user, racing root's launch) must not
// have another directory of the same name chmodded: the host's /tmp,
// where the symlink led to /.
func TestMkdirOneSwappedParent(t *testing.T) {
	root := t.TempDir()
	data, moved := filepath.Join(root, "home", ".omega"), filepath.Join(root, "moved")
	decoy := filepath.Join(root, "decoy")
	for _, d := range []string{data, filepath.Join(decoy, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	afterMkdir = func() {
		if err := os.Rename(data, moved); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(decoy, data); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterMkdir = func() {} }()
	if err := mkdirOwnerOnly(filepath.Join(data, "tmp")); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]os.FileMode{
		filepath.Join(decoy, "tmp"): 0o755,
		filepath.Join(moved, "tmp"): 0o700,
	} {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", dir, got, want)
		}
	}
}

// TestMkdirOwnerOnlySwappedAfterCheck: the data dir's owner swaps a
// directory on its path for a symlink of theirs after root's launch
// looked (noOthersLink) and before it makes what is missing: root must
// make nothing where the link leads (an empty root-owned 0700 dir in
// /etc), and say which path changed.
func TestMkdirOwnerOnlySwappedAfterCheck(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a symlink of another user's)")
	}
	root := t.TempDir()
	data, moved := filepath.Join(root, "home", ".omega"), filepath.Join(root, "moved")
	decoy := filepath.Join(root, "etc")
	for _, d := range []string{data, decoy} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	beforeMake = func() {
		beforeMake = func() {}
		if err := os.Rename(data, moved); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(decoy, data); err != nil {
			t.Error(err)
		}
		if err := os.Lchown(data, 65534, 65534); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeMake = func() {} }()
	err := mkdirOwnerOnly(filepath.Join(data, "tmp"))
	if err == nil || !strings.Contains(err.Error(), data) {
		t.Errorf("mkdirOwnerOnly through a swapped-in symlink of uid 65534: error %v, want one naming %s", err, data)
	}
	if _, err := os.Lstat(filepath.Join(decoy, "tmp")); err == nil {
		t.Errorf("%s made where the swapped-in symlink led", filepath.Join(decoy, "tmp"))
	}
}

// TestMkdirOwnerOnlyThroughLinks: symlinks the caller (root) or the host
// made on the data dir's path (/home -> /data/home, ~/.omega ->
// elsewhere, relative or absolute) are followed as before, and what is
// missing below them is made 0700 where they lead; a dangling one is an
// error, as it was, nothing being made at its target.
func TestMkdirOwnerOnlyThroughLinks(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	root := t.TempDir()
	real := filepath.Join(root, "data", "home", "alice")
	if err := os.MkdirAll(filepath.Join(real, "stash", "omega"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(root, "home"):      filepath.Join(root, "data", "home"),
		filepath.Join(real, ".omega"):    "stash/../stash/omega",
		filepath.Join(real, ".dangling"): "gone/omega",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, "home", "alice", ".omega", "tmp", "a")
	if err := mkdirOwnerOnly(dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"stash/omega/tmp", "stash/omega/tmp/a"} {
		fi, err := os.Lstat(filepath.Join(real, d))
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v (%v), want a directory 0700", d, fi, err)
		}
	}
	if err := mkdirOwnerOnly(filepath.Join(real, ".dangling", "tmp")); err == nil {
		t.Error("through a dangling link: no error")
	}
	if _, err := os.Lstat(filepath.Join(real, "gone")); err == nil {
		t.Error("made the dangling link's target")
	}
}

// TestCreateEmptyThroughOthersLink: the config file root creates empty
// in a --user's data dir is not created where a symlink of that user's,
// swapped in for the data dir after the launch looked, leads.
func TestCreateEmptyThroughOthersLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a symlink of another user's)")
	}
	root := t.TempDir()
	data, decoy := filepath.Join(root, ".omega"), filepath.Join(root, "etc")
	if err := os.Mkdir(decoy, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(decoy, data); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(data, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := createEmpty(filepath.Join(data, "config.toml")); err == nil || !strings.Contains(err.Error(), data) {
		t.Errorf("createEmpty through uid 65534's symlink: error %v, want one naming %s", err, data)
	}
	if _, err := os.Lstat(filepath.Join(decoy, "config.toml")); err == nil {
		t.Error("config.toml created where the symlink led")
	}
}

// TestMkdirOwnerOnlyExistingSwapRace: the data dir's owner flips it
// between a directory holding tmp and a symlink of theirs to a
// root-owned directory without one, while root's launch makes sure tmp
// is there: seen there, it was made again by path (os.MkdirAll), which
// follows the link swapped in since and made tmp where it led.
func TestMkdirOwnerOnlyExistingSwapRace(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a symlink of another user's)")
	}
	root := t.TempDir()
	data, decoy := filepath.Join(root, "home", ".omega"), filepath.Join(root, "etc")
	for _, d := range []string{filepath.Join(data, "tmp"), decoy} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stop := flipWithLink(t, data, decoy)
	defer stop()
	made := filepath.Join(decoy, "tmp")
	for i, end := 0, time.Now().Add(5*time.Second); i < 50000 && time.Now().Before(end); i++ {
		mkdirOwnerOnly(filepath.Join(data, "tmp")) // fails whenever it meets the link
		if _, err := os.Lstat(made); err == nil {
			t.Fatalf("try %d: %s made through the owner's swapped-in link", i, made)
		}
	}
}

// flipWithLink swaps dir, over and over until stop, with a symlink of
// uid 65534's to target (renameat2 RENAME_EXCHANGE), as dir's owner
// racing root's launch could.
func flipWithLink(t *testing.T, dir, target string) (stop func()) {
	alt := dir + "-alt"
	if err := os.Symlink(target, alt); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(alt, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
				unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, alt, unix.RENAME_EXCHANGE)
			}
		}
	}()
	return func() { close(quit); <-done }
}

// TestHardLinkedRootLink: with fs.protected_hardlinks=0 (the kernel's
// default) a user can give a symlink of root's (/var/run -> /run) a
// second name in a directory they may write: their home, or /var/tmp
// (root's, 1777), where root was to use a data dir made for them (install
// -d -o) that they then replaced. Root's launch, which follows root's
// links only, must count it as theirs: the data dir is refused, and
// nothing is made or resolved where it leads.
func TestHardLinkedRootLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a link of root's, and a directory of another user's)")
	}
	for _, c := range []struct {
		name string
		uid  int
		mode os.FileMode
		want string
	}{
		{"home", 65534, 0o755, "(uid 65534)"},
		{"var-tmp", 0, 0o1777, "in a directory others may write"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, err := os.MkdirTemp("/var/tmp", "omega-hardlink-") // outside /tmp: see TestCanonicalRootsOthersLink
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(base) })
			home, decoy, rootLink := filepath.Join(base, "home"), filepath.Join(base, "run"), filepath.Join(base, "varrun")
			for _, d := range []string{home, filepath.Join(decoy, "tmp")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chown(home, c.uid, c.uid); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(home, c.mode); err != nil {
				t.Fatal(err)
			}
			pol, err := Options{Mode: ModeSandbox, Home: home}.Policy()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(decoy, rootLink); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(rootLink, pol.DataDir); err != nil { // as the user could
				t.Fatal(err)
			}
			if err := noOthersLink(pol.DataDir); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("noOthersLink: %v, want an error saying %q", err, c.want)
			}
			if _, err := canonicalRoots(pol, nil); err == nil {
				t.Error("canonicalRoots: no error through the hard-linked symlink")
			}
			if err := mkdirOwnerOnly(pol.Workspace()); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("mkdirOwnerOnly: %v, want an error saying %q", err, c.want)
			}
			if _, err := os.Lstat(filepath.Join(decoy, "workspace")); err == nil {
				t.Error("workspace made where the hard-linked symlink led")
			}
			// Root's own link, of one name, is followed.
			if err := os.Remove(rootLink); err != nil {
				t.Fatal(err)
			}
			if err := noOthersLink(pol.DataDir); err != nil {
				t.Errorf("noOthersLink through root's own link: %v", err)
			}
		})
	}
}
