//go:build unix && !linux

package sandbox

// noexecMount is known on Linux only; elsewhere execve will say.
func noexecMount(string) bool { return false }
