//go:build !unix

package sandbox

import "os"

// Stderr is where a launcher sends its own lines (stderr_unix.go).
var Stderr = os.Stderr
