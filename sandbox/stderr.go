package sandbox

import "github.com/omega-run/omega-run/internal/stderr"

// Stderr is where a launcher sends its own lines: stderr, where a line
// nobody reads any more is dropped instead of ending the process by
// SIGPIPE (internal/stderr), and each line is made terminal-safe: C0 and
// C1 controls but a line's end, DEL and bidi characters as \uXXXX, which
// keeps a JSON line the same JSON. The CLI points logrus at it.
var Stderr = stderr.Writer
