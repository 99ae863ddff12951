package secureexec

import "golang.org/x/sys/unix"

// atSecure is AT_SECURE (<linux/auxvec.h>), which x/sys/unix does not name.
const atSecure = 23

// kernelSecure reports AT_SECURE, which the kernel sets for a setuid or
// setgid exec and one that gains file capabilities or an LSM transition.
func kernelSecure() bool {
	vec, err := unix.Auxv()
	if err != nil {
		return false // ids still checked
	}
	for _, kv := range vec {
		if kv[0] == atSecure {
			return kv[1] != 0
		}
	}
	return false
}
