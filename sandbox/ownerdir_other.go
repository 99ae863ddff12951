//go:build !linux

package sandbox

import "os"

// ownerOnly gives dir, which ensureDirs has just made, mode 0700 whatever
// the caller's umask took from it.
func ownerOnly(dir string) error { return os.Chmod(dir, 0o700) }
