package sandbox

import "golang.org/x/sys/unix"

// noexecMount tells whether path lies on a mount that refuses execve.
func noexecMount(path string) bool {
	var st unix.Statfs_t
	return unix.Statfs(path, &st) == nil && st.Flags&stNoexec != 0
}

const stNoexec = 0x8 // ST_NOEXEC in statfs(2)'s f_flags
