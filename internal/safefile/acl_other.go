//go:build unix && !linux

package safefile

// extendedACL: only Linux's POSIX ACLs are read.
func extendedACL(string) bool { return false }
