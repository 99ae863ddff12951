//go:build !linux

package sandbox

import "os"

// capable: without Linux capabilities, root is the privileged one.
func capable() bool { return os.Geteuid() == 0 }

// hasAccessACL: POSIX ACLs are read on Linux only.
func hasAccessACL(string) bool { return false }
