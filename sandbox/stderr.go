package sandbox

import "github.com/omega-run/omega-run/internal/stderr"

// Stderr is where a launcher sends its own lines: stderr, where a line
// nobody reads any more is dropped instead of ending the process by
// SIGPIPE (internal/stderr). The CLI points logrus at it.
var Stderr = stderr.Writer
