//go:build !unix

package stderr

import (
	"os"

	"github.com/omega-run/omega-run/internal/termsafe"
)

// Writer is where a launcher sends its own lines, made terminal-safe
// (stderr_unix.go).
var Writer stderrFile

type stderrFile struct{}

func (stderrFile) Write(line []byte) (int, error) {
	if _, err := os.Stderr.Write(termsafe.Encoded(line)); err != nil {
		return 0, err
	}
	return len(line), nil
}
