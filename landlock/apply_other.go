//go:build !linux

package landlock

import "errors"

// ABI is 0: Landlock exists only on Linux.
func ABI() int { return 0 }

// EffectiveABI is 0: Landlock exists only on Linux.
func EffectiveABI() int { return 0 }

// RestrictThread enforces nothing outside Linux.
func RestrictThread(Rules) (bool, error) {
	return false, errors.New("landlock: only available on Linux")
}

// Ruleset does nothing outside Linux.
type Ruleset struct{}

// Prepare builds nothing outside Linux.
func Prepare(Rules) (*Ruleset, error) { return &Ruleset{}, nil }

// Available is false outside Linux.
func (*Ruleset) Available() bool { return false }

// Enforce enforces nothing outside Linux.
func (*Ruleset) Enforce() (bool, error) { return false, nil }

// WrittenStreams names nothing outside Linux.
func WrittenStreams(...int) []string { return nil }
