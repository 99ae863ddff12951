//go:build !linux

package rlimits

import (
	"fmt"
	"runtime"
)

// Apply returns an error wrapping ErrUnsupported when ls is not empty, and
// nil otherwise.
func Apply(ls []Limit) error {
	if len(ls) == 0 {
		return nil
	}
	return fmt.Errorf("rlimits: %w (this is %s)", ErrUnsupported, runtime.GOOS)
}
