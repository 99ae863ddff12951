//go:build !linux

package landlock

import "errors"

// ABI is 0: Landlock exists only on Linux.
func ABI() int { return 0 }

// RestrictThread enforces nothing outside Linux.
func RestrictThread(Rules) (bool, error) {
	return false, errors.New("landlock: only available on Linux")
}
