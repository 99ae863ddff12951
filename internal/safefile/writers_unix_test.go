//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/internal/accounts"
)

// TestOthersCanWrite: a settings file that its group or every user may
// write, or may replace through its directory, is refused with its
// owner, mode and the chmod that fixes it (sshd's StrictModes): a root's
// config.toml of mode 0664 let the group ask for mode = "rwx". A sticky
// directory (/tmp) and /dev/null are fine.
func TestOthersCanWrite(t *testing.T) {
	// Root's group has another member here: group-writable is not waved
	// through as a private group's (TestPrivateGroup).
	fakeAccounts(t, "root:x:0:0::/root:/bin/sh\n", "root:x:0:alice\n")
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

func fakeAccounts(t *testing.T, passwd, group string) {
	t.Helper()
	dir := t.TempDir()
	saved := [2]string{accounts.PasswdFile, accounts.GroupFile}
	accounts.PasswdFile, accounts.GroupFile = filepath.Join(dir, "passwd"), filepath.Join(dir, "group")
	t.Cleanup(func() { accounts.PasswdFile, accounts.GroupFile = saved[0], saved[1] })
	os.WriteFile(accounts.PasswdFile, []byte(passwd), 0o644)
	os.WriteFile(accounts.GroupFile, []byte(group), 0o644)
}

// TestPrivateGroup: a group-writable file is fine where the group is its
// owner's alone (user private groups with umask 002, Debian's and
// Ubuntu's default), as Debian's sshd judges it; not where anyone else
// is in it or has it as primary group, nor for accounts the local files
// do not know.
func TestPrivateGroup(t *testing.T) {
	const passwd = "alice:x:1000:1000::/home/alice:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\n" +
		"carol:x:1002:2000::/home/carol:/bin/sh\n"
	for _, c := range []struct {
		name, group string
		uid, gid    uint32
		want        bool
	}{
		{"own primary", "alice:x:1000:\n", 1000, 1000, true},
		{"own primary, listed", "alice:x:1000:alice\n", 1000, 1000, true},
		{"another member", "alice:x:1000:alice,bob\n", 1000, 1000, false},
		{"another's primary", "staff:x:2000:alice\n", 1000, 2000, false},
		{"supplementary, alone", "proj:x:3000:alice\n", 1000, 3000, true},
		{"supplementary, empty", "proj:x:3000:\n", 1000, 3000, false},
		{"unknown owner", "x:x:4000:\n", 4000, 4000, false},
		{"unknown group", "alice:x:1000:\n", 1000, 5000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fakeAccounts(t, passwd, c.group)
			if got := privateGroup(c.uid, c.gid); got != c.want {
				t.Errorf("privateGroup(%d, %d) = %v, want %v", c.uid, c.gid, got, c.want)
			}
		})
	}
	if os.Geteuid() != 0 {
		return
	}
	fakeAccounts(t, "root:x:0:4242::/root:/bin/sh\n", "rootpg:x:4242:\n")
	if _, err := Read(privateGroupFile(t), 64, Named); err != nil {
		t.Errorf("group-writable in the owner's private group: %v", err)
	}
}

// privateGroupFile makes a 0664 file in a 0775 directory, both root's and
// in root's private group 4242 (fakeAccounts), as umask 002 leaves them.
func privateGroupFile(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "d")
	os.Mkdir(dir, 0o775)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("x"), 0o664)
	for _, p := range []string{dir, f} {
		os.Chown(p, 0, 4242)
		os.Chmod(p, map[bool]os.FileMode{true: 0o775, false: 0o664}[p == dir])
	}
	return f
}

// TestAncestors: every directory on the file's resolved path up to / is
// judged, not only the one holding it (sshd's safe_path): one that its
// group or every user may write without the sticky bit, or one of a user
// other than root, the file's owner and the caller, lets them rename the
// directory below and put their own config in its place (a team's 0775
// /srv/team above /srv/team/omega/config.toml). A sticky /tmp with the
// owner's directory in it, a private group, and a link from a safe
// directory to a safe file pass; a link in an unsafe directory (it can be
// re-pointed) or a safe one to a file below an unsafe directory do not.
func TestAncestors(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to other users needs root")
	}
	// 4242 is root's private group; 4343 is shared with alice.
	fakeAccounts(t, "root:x:0:4242::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n",
		"rootpg:x:4242:\nteam:x:4343:root,alice\n")
	type node struct {
		mode     os.FileMode
		uid, gid int
	}
	safe := node{0o755, 0, 0}
	cases := []struct {
		name          string
		top, mid      node // top/mid/f, f root's 0644 unless fileUID
		fileUID       int
		link          string // "" reads top/mid/f; see below
		want, wantFix string // want names top ("{top}") or mid ("{mid}")
	}{
		{"safe", safe, safe, 0, "", "", ""},
		{"world-writable above", node{0o777, 0, 0}, safe, 0, "",
			"{top} (owner root, mode 0777), a directory above {f}, can be written by its group (", "chmod go-w {top} (or chmod +t {top})"},
		{"team-writable above", node{0o775, 0, 4343}, safe, 0, "",
			"{top} (owner root, mode 0775), a directory above {f}, can be written by its group (", "who could replace the file, which decides what a launch may do: chmod g-w {top}"},
		{"sticky above", node{os.ModeSticky | 0o777, 0, 0}, safe, 0, "", "", ""},
		{"sticky above, user's dir and file", node{os.ModeSticky | 0o777, 0, 0}, node{0o700, 1000, 1000}, 1000, "", "", ""},
		{"private group above", node{0o775, 0, 4242}, safe, 0, "", "", ""},
		{"another user's above", node{0o755, 1000, 1000}, safe, 0, "",
			"{top} (owner {alice}, mode 0755), a directory above {f}, belongs to a user other than root and the file's owner (root)", "chown root {top}, or keep the file elsewhere"},
		{"another user's sticky above", node{os.ModeSticky | 0o777, 1000, 1000}, safe, 0, "", "belongs to a user other than root", ""},
		{"file owner's above", node{0o755, 1000, 1000}, node{0o755, 1000, 1000}, 1000, "", "", ""},
		{"another user's holding", safe, node{0o755, 1000, 1000}, 0, "",
			"{mid} (owner {alice}, mode 0755), the directory holding f, belongs to a user other than root", ""},
		// A link in a 0777 directory to the file: the link may be re-pointed.
		{"link from an unsafe dir", safe, safe, 0, "unsafe",
			"{links} (owner root, mode 0777), the directory holding the symlink l, can be written by its group (", "who could re-point it at another file, which would decide what a launch may do: chmod go-w {links}"},
		// A link in a safe directory to a file below a 0777 one.
		{"link from a safe dir", safe, safe, 0, "safe", "", ""},
		{"link to below an unsafe dir", node{0o777, 0, 0}, safe, 0, "safe", "{top} (owner root, mode 0777), a directory above {f}", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			top := filepath.Join(base, "top")
			mid := filepath.Join(top, "mid")
			f := filepath.Join(mid, "f")
			os.MkdirAll(mid, 0o700)
			os.WriteFile(f, []byte("x"), 0o644)
			os.Chown(f, c.fileUID, c.fileUID)
			for p, n := range map[string]node{top: c.top, mid: c.mid} {
				os.Chown(p, n.uid, n.gid)
				os.Chmod(p, n.mode)
			}
			read := f
			if c.link != "" {
				links := filepath.Join(base, "links")
				os.Mkdir(links, map[string]os.FileMode{"unsafe": 0o777, "safe": 0o755}[c.link])
				os.Chmod(links, map[string]os.FileMode{"unsafe": 0o777, "safe": 0o755}[c.link])
				read = filepath.Join(links, "l")
				os.Symlink(f, read)
			}
			_, err := Read(read, 64, Named)
			r := strings.NewReplacer("{top}", top, "{mid}", mid, "{f}", f, "{links}", filepath.Join(base, "links"), "{alice}", userName(1000)) // the name os/user gives
			want, fix := r.Replace(c.want), r.Replace(c.wantFix)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%v, want it read", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fix)):
				t.Errorf("%v, want %q … %q", err, want, fix)
			}
		})
	}
}

// TestAncestorsDataDir: the data dir's config file (DataDir) may lie in a
// directory of any user's, whom the launch judges (root's --user), but
// not below one of another user's.
func TestAncestorsDataDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to other users needs root")
	}
	for _, c := range []struct {
		name    string
		holding bool // else the one above is 12345's
		want    string
	}{
		{"another user's data dir", true, ""},
		{"another user's above", false, "a directory above"},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "top")
			f := filepath.Join(top, "data", "config.toml")
			os.MkdirAll(filepath.Dir(f), 0o755)
			os.WriteFile(f, []byte("x"), 0o644)
			os.Chown(map[bool]string{true: filepath.Dir(f), false: top}[c.holding], 12345, 12345)
			_, err := Read(f, 64, DataDir)
			if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
			if _, err := Read(f, 64, Regular); c.holding && err == nil {
				t.Error("Regular: read, want the other user's directory refused")
			}
		})
	}
}

// TestAncestorsDotDotAfterLink: a path with .. after a symlink goes up
// from where the link leads, as the kernel resolves it, not from the
// link (filepath.Abs's lexical Clean): the file below a 0777 directory is
// judged, not passed because the lexical path names nothing.
func TestAncestorsDotDotAfterLink(t *testing.T) {
	base := t.TempDir()
	top := filepath.Join(base, "top")
	os.MkdirAll(filepath.Join(top, "mid", "sub"), 0o755)
	os.Chmod(top, 0o777)
	f := filepath.Join(top, "mid", "f")
	os.WriteFile(f, []byte("x"), 0o644)
	links := filepath.Join(base, "links")
	os.Mkdir(links, 0o755)
	os.Symlink(filepath.Join(top, "mid", "sub"), filepath.Join(links, "l"))
	_, err := Read(links+"/l/../f", 64, Named)
	if err == nil || !strings.Contains(err.Error(), top+" (owner") {
		t.Errorf("%v, want %s refused", err, top)
	}
}

// TestPathGoneWhileRead: a linked regular file whose path stops resolving
// between the open and the judging (its directory renamed away, as a
// writer of a directory above could race it) is refused, not passed
// unjudged (TestUnlinkedPasses: an unlinked one is read).
func TestPathGoneWhileRead(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "omega")
	os.Mkdir(dir, 0o755)
	f := filepath.Join(dir, "config.toml")
	os.WriteFile(f, []byte("x"), 0o644)
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	os.Rename(dir, filepath.Join(base, "away"))
	if err := othersCanWrite(f, fi, Named); err == nil || !strings.Contains(err.Error(), "path changed while it was read") {
		t.Errorf("moved away: %v, want refused", err)
	}
}

// TestUnresolvedError: a path that stopped resolving is said to have
// changed; one beyond a directory the caller may not search (a file
// handed over open as stdin, sudo -u) is not: nothing moved.
func TestUnresolvedError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "lstat", Path: "/a/b", Err: syscall.ENOENT}, "its path changed while it was read"},
		{&fs.PathError{Op: "lstat", Path: "/a/b", Err: syscall.ENOTDIR}, "its path changed while it was read"},
		{&fs.PathError{Op: "lstat", Path: "/root/d", Err: syscall.EACCES}, "its path cannot be followed from here"},
	} {
		err := unresolvedError("/dev/stdin", tc.err)
		if !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.err.(*fs.PathError).Err) {
			t.Errorf("%v: %v, want %q", tc.err, err, tc.want)
		}
	}
}
