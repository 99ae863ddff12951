//go:build linux

package sandbox

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
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

// TestExecutableAs: without faccessat, the mode bits decide for the
// runner's uid and groups (owner, else group, else other), and a POSIX
// ACL, which may grant what they refuse, leaves it to execve.
func TestExecutableAs(t *testing.T) {
	dir := t.TempDir()
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
		err := executable(path, c.as)
		if got := err == nil; got != c.want {
			t.Errorf("%s: runs %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}
