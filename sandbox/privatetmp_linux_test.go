package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestCanonicalRootsOthersLink: the data dir's owner swaps it for a
// symlink of theirs after root's launch looked (noOthersLink): the roots
// in it, resolved later for the mounts, Landlock and the private /tmp's
// chmod, must not follow that link (to a root-owned directory holding a
// tmp, which root would make 1777 and the program's /tmp).
func TestCanonicalRootsOthersLink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a symlink of another user's)")
	}
	// Outside /tmp, where every link counts as a program's (checkPlanted).
	base, err := os.MkdirTemp("/var/tmp", "omega-canon-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	home, target := filepath.Join(base, "home"), filepath.Join(base, "svc")
	for _, d := range []string{home, filepath.Join(target, "tmp"), filepath.Join(target, "workspace")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := Options{Mode: ModeSandbox, Home: home}.Policy()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, pol.DataDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(pol.DataDir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if canon, err := canonicalRoots(pol, nil); err == nil || !strings.Contains(err.Error(), pol.DataDir) {
		t.Errorf("canonicalRoots through uid 65534's symlink: %v, %v; want an error naming %s", canon, err, pol.DataDir)
	}
	// The host's (root's) links still lead where they point.
	if err := os.Lchown(pol.DataDir, 0, 0); err != nil {
		t.Fatal(err)
	}
	if canon, err := canonicalRoots(pol, nil); err != nil || canon[pol.PrivateTmp()] != filepath.Join(target, "tmp") {
		t.Errorf("canonicalRoots through root's symlink: %v, %v; want the tmp at %s", canon, err, target)
	}
}

// TestCanonicalRootsSwapRace: the data dir's owner flips it between a
// directory and a symlink of theirs while root's launch resolves the
// roots in it. Resolved by path, a name checked as a directory was then
// gone through as the link (the kernel follows it in the next lstat), to
// a root-owned symlink named tmp whose target, a root-owned directory,
// became the program's /tmp (and got root's chmod 1777): only the links
// followed last were checked to be root's.
func TestCanonicalRootsSwapRace(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root (a symlink of another user's)")
	}
	base, err := os.MkdirTemp("/var/tmp", "omega-race-") // outside /tmp, see above
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	home, decoy, rootDir := filepath.Join(base, "home"), filepath.Join(base, "decoy"), filepath.Join(base, "rootdir")
	pol, err := Options{Mode: ModeSandbox, Home: home}.Policy()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{pol.PrivateTmp(), decoy, rootDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// A root-owned link named tmp, to an absolute path, somewhere.
	if err := os.Symlink(rootDir, filepath.Join(decoy, "tmp")); err != nil {
		t.Fatal(err)
	}
	stop := flipWithLink(t, pol.DataDir, decoy)
	defer stop()
	// A race: tried for a while (before the fix it was won within a few
	// thousand tries here).
	for i, end := 0, time.Now().Add(5*time.Second); i < 50000 && time.Now().Before(end); i++ {
		canon, err := canonicalRoots(pol, nil)
		if err == nil && canon[pol.PrivateTmp()] != pol.PrivateTmp() {
			t.Fatalf("try %d: the sandbox's /tmp resolved to %s through the owner's swapped-in link", i, canon[pol.PrivateTmp()])
		}
	}
}
