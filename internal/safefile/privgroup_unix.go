//go:build unix

package safefile

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/internal/accounts"
)

// groupOnly clears the group-write bit from w where fi's group is its
// owner's own: under user private groups (Debian's and Ubuntu's
// default) umask 002 makes every file a user creates group-writable, and
// only that user is in the group. Not where path has an ACL: the group
// bits are then its mask, which a write granted to another user sets.
func groupOnly(path string, fi os.FileInfo, w os.FileMode) os.FileMode {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && w == 0o020 && privateGroup(st.Uid, st.Gid) && !extendedACL(path) {
		return 0
	}
	return w
}

// privateGroup reports whether gid is uid's private group, as Debian's
// OpenSSH judges a group-writable file under StrictModes: nobody but
// uid's user is a member, and no other user has it as primary group.
// Accounts not in the local files (LDAP) are not: the file is refused,
// with the chmod that fixes it.
func privateGroup(uid, gid uint32) bool {
	owner, ownerGID := "", uint32(0)
	found := false
	for _, f := range accounts.Lines(accounts.PasswdFile) { // name:x:uid:gid:…
		if len(f) < 4 {
			continue
		}
		u, err1 := strconv.ParseUint(f[2], 10, 32)
		g, err2 := strconv.ParseUint(f[3], 10, 32)
		switch {
		case err1 != nil || err2 != nil:
		case uint32(u) == uid:
			owner, ownerGID, found = f[0], uint32(g), true
		case uint32(g) == gid:
			return false
		}
	}
	if !found {
		return false
	}
	for _, f := range accounts.Lines(accounts.GroupFile) { // name:x:gid:members
		if len(f) < 4 || f[2] != strconv.FormatUint(uint64(gid), 10) {
			continue
		}
		members := strings.FieldsFunc(f[3], func(r rune) bool { return r == ',' })
		for _, m := range members {
			if m != owner {
				return false
			}
		}
		return ownerGID == gid || len(members) == 1
	}
	return false
}
