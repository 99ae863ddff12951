package seccomp

import "golang.org/x/sys/unix"

// currentHost describes the machine the filter will run on.
func currentHost() host {
	h := host{arch: nativeArch()}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		if v, err := parseKernel(unix.ByteSliceToString(u.Release[:])); err == nil {
			h.kernel = v
		}
	}
	return h
}
