//go:build unix && !linux

package sandbox

import "os"

// openRegular opens path without blocking; readRegular checks that it
// is a regular file.
func openRegular(path string, noFollow bool) (*os.File, error) { return openDirect(path, noFollow) }
