//go:build unix && !linux

package safefile

// unmapped: user namespaces are Linux's.
func unmapped(uint32) bool { return false }
