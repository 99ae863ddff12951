package safefile

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPrivateGroupACL: an access ACL that grants another user a write
// shows in the group bits (its mask), so a group-writable file in its
// owner's private group may still be written by others: under umask 002
// the exception for private groups waved such a config through, and
// nobody rewrote it (mode = "rwx"). The file, or its directory, with
// such an ACL is refused, and chmod g-w (the mask) fixes it.
func TestPrivateGroupACL(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to a private group needs root")
	}
	fakeAccounts(t, "root:x:0:4242::/root:/bin/sh\n", "rootpg:x:4242:\n")
	for _, onDir := range []bool{false, true} {
		f := privateGroupFile(t)
		dir := filepath.Dir(f)
		target := map[bool]string{false: f, true: dir}[onDir]
		if err := unix.Setxattr(target, "system.posix_acl_access", aclGrantingWrite(65534), 0); err != nil {
			t.Skipf("no POSIX ACLs here: %v", err)
		}
		if _, err := Read(f, 64, Named); err == nil {
			t.Errorf("ACL on the %s granting uid 65534 a write: read, want it refused", map[bool]string{false: "file", true: "directory"}[onDir])
		}
	}
}

// aclGrantingWrite is the xattr form of u::rwx,u:uid:rw-,g::rwx,m::rwx,o::r-x.
func aclGrantingWrite(uid uint32) []byte {
	const undefined = 0xffffffff
	b := binary.LittleEndian.AppendUint32(nil, 2) // version
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{1, 7, undefined}, {2, 6, uid}, {4, 7, undefined}, {0x10, 7, undefined}, {0x20, 5, undefined}} {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}
