//go:build !unix

package stderr

import "os"

// Writer is where a launcher sends its own lines (stderr_unix.go).
var Writer = os.Stderr
