//go:build !unix

package sandbox

import "io/fs"

// owner is unknown where files have no uid.
func owner(fs.FileInfo) (uid, gid int, ok bool) { return -1, -1, false }

// checkPreservedFDs has nothing to check where fds are not inherited.
func checkPreservedFDs(int) error { return nil }
