package sandbox

import "golang.org/x/sys/unix"

// capable tells whether the caller holds any effective capability, which
// its faccessat would use and a program without capabilities would not
// have. Unknown counts as capable: the mode bits then decide.
func capable() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return true
	}
	return data[0].Effective != 0 || data[1].Effective != 0
}

// hasAccessACL tells whether path (followed) has a POSIX access ACL, which
// may grant what its mode bits do not.
func hasAccessACL(path string) bool {
	_, err := unix.Getxattr(path, "system.posix_acl_access", nil)
	return err == nil
}
