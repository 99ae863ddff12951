//go:build !linux

package sandbox

// ownLikeDataDir is Linux's: elsewhere omega-run does not switch users.
func ownLikeDataDir(string) error { return nil }
