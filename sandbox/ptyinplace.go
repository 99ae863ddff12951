package sandbox

import (
	"errors"
	"fmt"
)

// ptyInPlace is the warning, or with FailClosed the error, for --pty
// where the program replaces omega-run (macOS: sandbox-exec runs it in
// place): nothing is left to relay, and the program keeps the caller's
// terminal, as without --pty.
func ptyInPlace(p *plan) (string, error) {
	if !p.pty {
		return "", nil
	}
	const what = "--pty is Linux's: here the program replaces omega-run under sandbox-exec, so nothing relays a terminal of its own and it keeps yours, as without --pty"
	if p.policy.FailClosed {
		return "", fmt.Errorf("--fail-closed: %w", errors.New(what))
	}
	return what, nil
}
