//go:build linux

package sandbox

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRunnerExact: faccessat answers for the program only when it runs
// with the caller's own uid and groups and the caller has no capability.
func TestRunnerExact(t *testing.T) {
	caller := credentials{uid: 1000, gids: []uint32{1000, 27, 100}}
	capable := caller
	capable.capable = true
	cases := []struct {
		name string
		r    runner
		c    credentials
		want bool // faccessat decides
	}{
		{"same ids", runner{uid: 1000, gids: []uint32{1000, 27, 100}}, caller, true},
		{"same groups, other order, repeated", runner{uid: 1000, gids: []uint32{100, 1000, 27, 1000}}, caller, true},
		{"caller holds capabilities", runner{uid: 1000, gids: []uint32{1000, 27, 100}}, capable, false},
		{"other uid", runner{uid: 1001, gids: []uint32{1000, 27, 100}}, caller, false},
		{"a group more", runner{uid: 1000, gids: []uint32{1000, 27, 100, 4}}, caller, false},
		{"a group less", runner{uid: 1000, gids: []uint32{1000}}, caller, false},
		{"root without capabilities (--user 0 by a capable root)", runner{uid: 0, gids: []uint32{0}}, credentials{uid: 0, gids: []uint32{0}, capable: true}, false},
		{"already the caller (rwx)", runner{caller: true}, capable, true},
	}
	for _, c := range cases {
		if got := c.r.exact(c.c).caller; got != c.want {
			t.Errorf("%s: faccessat decides %v, want %v", c.name, got, c.want)
		}
	}
}

// setTestACL gives path an access ACL: the mode's owner, group and other
// bits, and rx for uid.
func setTestACL(t *testing.T, path string, uid uint32) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	m, obj := uint16(st.Mode().Perm()), ^uint32(0)
	blob := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, m >> 6 & 7, obj}, {0x02, 5, uid}, {0x04, m >> 3 & 7, obj}, {0x10, m>>3&7 | 5, obj}, {0x20, m & 7, obj}} {
		blob = binary.LittleEndian.AppendUint16(blob, e.tag)
		blob = binary.LittleEndian.AppendUint16(blob, e.perm)
		blob = binary.LittleEndian.AppendUint32(blob, e.id)
	}
	if err := unix.Setxattr(path, "system.posix_acl_access", blob, 0); errors.Is(err, unix.EOPNOTSUPP) {
		t.Skip("no POSIX ACLs here")
	} else if err != nil {
		t.Fatal(err)
	}
}

// searchableTempDir is a t.TempDir that anyone may search (t.TempDir
// makes it and its parent 0700).
func searchableTempDir(t *testing.T) string {
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	return dir
}

// TestExecutableAs: without faccessat, the mode bits decide for the
// runner's uid and groups (owner, else group, else other), and a POSIX
// ACL, which may grant what they refuse, leaves it to execve.
func TestExecutableAs(t *testing.T) {
	dir := searchableTempDir(t)
	if noexecMount(dir) {
		t.Skip(dir + " is on a noexec mount")
	}
	me, myGid := uint32(os.Getuid()), uint32(os.Getgid())
	owner := runner{uid: me, gids: []uint32{myGid + 1}}
	member := runner{uid: me + 1, gids: []uint32{myGid + 1, myGid}}
	other := runner{uid: me + 1, gids: []uint32{myGid + 1}}
	cases := []struct {
		name string
		mode os.FileMode
		acl  bool // an ACL grants other.uid rx
		as   runner
		want bool
	}{
		{"owner, 0700", 0o700, false, owner, true},
		{"owner, 0605: owner bits only", 0o605, false, owner, false},
		{"member, 0750", 0o750, false, member, true},
		{"member, 0705: group bits only", 0o705, false, member, false},
		{"other, 0751", 0o751, false, other, true},
		{"other, 0750", 0o750, false, other, false},
		{"other, 0750 with an ACL", 0o750, true, other, true},
		{"owner, 0650 with an ACL (execve decides)", 0o650, true, owner, true},
	}
	for i, c := range cases {
		path := filepath.Join(dir, "prog"+string(rune('a'+i)))
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), c.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, c.mode)
		if c.acl {
			setTestACL(t, path, other.uid)
		}
		err := executable(path, c.as, map[string]bool{})
		if got := err == nil; got != c.want {
			t.Errorf("%s: runs %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}

// TestWalkPathAs: without faccessat, every directory from / down to the
// file, and down to where a symlink leads, must let the runner search it
// (mode bits, or an ACL that leaves it to execve); an unsearchable
// directory is refused before its entries are looked at, as execve's
// EACCES comes before ENOENT.
func TestWalkPathAs(t *testing.T) {
	dir := searchableTempDir(t)
	me, myGid := uint32(os.Getuid()), uint32(os.Getgid())
	owner := runner{uid: me, gids: []uint32{myGid + 1}}
	member := runner{uid: me + 1, gids: []uint32{myGid + 1, myGid}}
	other := runner{uid: me + 1, gids: []uint32{myGid + 1}}
	for d, mode := range map[string]os.FileMode{"open": 0o755, "closed": 0o700, "group": 0o710, "acl": 0o700} {
		os.MkdirAll(filepath.Join(dir, d, "bin"), 0o755)
		os.WriteFile(filepath.Join(dir, d, "bin", "tool"), []byte("#!/bin/sh\n"), 0o755)
		os.Chmod(filepath.Join(dir, d), mode)
	}
	setTestACL(t, filepath.Join(dir, "acl"), other.uid)
	open := filepath.Join(dir, "open")
	os.Symlink("../closed/bin", filepath.Join(open, "link"))
	os.Symlink(filepath.Join(dir, "closed", "bin"), filepath.Join(open, "abslink"))
	os.Symlink("../closed/bin/tool", filepath.Join(open, "toollink"))
	os.Symlink("loop", filepath.Join(open, "loop"))
	os.WriteFile(filepath.Join(open, "file"), nil, 0o644)
	cases := []struct {
		path string
		as   runner
		want error // nil: reached
	}{
		{"open/bin/tool", other, nil},
		{"open/bin/missing", other, fs.ErrNotExist},
		{"closed/bin/tool", other, fs.ErrPermission},
		{"closed/bin/missing", other, fs.ErrPermission},
		{"closed/bin/tool", owner, nil},
		{"group/bin/tool", member, nil},
		{"group/bin/tool", other, fs.ErrPermission},
		{"acl/bin/tool", other, nil},
		{"open/link/tool", other, fs.ErrPermission},
		{"open/link/tool", owner, nil},
		{"open/abslink/tool", other, fs.ErrPermission},
		{"open/toollink", other, fs.ErrPermission},
		{"open/toollink", owner, nil},
		{"open/loop/tool", other, syscall.ELOOP},
		{"open/file/tool", other, syscall.ENOTDIR},
		{"closed/bin/tool", runner{caller: true}, nil}, // faccessat's to judge
	}
	for _, c := range cases {
		fi, err := walkPath(filepath.Join(dir, c.path), c.as, map[string]bool{})
		switch {
		case c.want == nil && (err != nil || fi.Name() != "tool"):
			t.Errorf("%s as %+v: %v, want it reached", c.path, c.as, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s as %+v: %v, want %v", c.path, c.as, err, c.want)
		}
	}
	// The program's PATH: an entry it may not search is passed over, and
	// the only match behind one is 126.
	path := filepath.Join(dir, "closed", "bin") + ":" + filepath.Join(open, "link") + ":" + filepath.Join(open, "bin")
	if got, err := resolveProgram("tool", lookup{workdir: dir, path: path, pathSet: true, as: other}); got != filepath.Join(open, "bin", "tool") {
		t.Errorf("tool in %s: %q (%v), want open/bin's", path, got, err)
	}
	var e *Error
	if _, err := resolveProgram("tool", lookup{workdir: dir, path: filepath.Join(dir, "closed", "bin"), pathSet: true, as: other}); !errors.As(err, &e) || e.Code != ExitNotExecutable {
		t.Errorf("tool only in closed/bin: %v, want 126", err)
	}
}
