//go:build linux

package nsexec

import "golang.org/x/sys/unix"

// newSessionKeyring gives the sandbox an empty session keyring of its own
// (cinit_confine.c's omega_new_session_keyring). The caller's, inherited
// across the namespaces, holds keys (a Kerberos KEYRING: cache, ecryptfs
// and cifs credentials) that a program with a profile allowing keyctl
// would read as their possessor.
func newSessionKeyring(w warner) {
	// A NULL name makes a new anonymous keyring.
	_, _, e := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0)
	if e == 0 {
		return
	}
	// When keyctl itself is refused (a kernel without keyrings: ENOSYS; a
	// filter around omega-run: EPERM, EACCES), the program, which inherits
	// that filter, cannot read the keys either: nothing to say.
	if _, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false); err == nil {
		w.warn("the program keeps your session keyring (keyctl: " + e.Error() + "); a seccomp profile that allows keyctl lets it read the keys there")
	}
}
