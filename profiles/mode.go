// Package profiles holds omega-run's policies as data: the modes, the
// Policy value every backend consumes, and the embedded defaults. It makes
// no system calls and builds on every GOOS.
package profiles

import (
	"fmt"
	"strings"
)

// Mode selects how much of the host a confined program may touch.
type Mode string

const (
	// ModeSandbox is the default: namespaces, Landlock, seccomp and masks.
	ModeSandbox Mode = "sandbox"
	// ModeRX lets the program read and execute anywhere but write only to
	// its writable set; one process, no namespaces.
	ModeRX Mode = "rx"
	// ModeRWX runs the program plainly: no restrictions at all.
	ModeRWX Mode = "rwx"
)

// Modes lists the valid modes in the order help text shows them.
var Modes = []Mode{ModeSandbox, ModeRX, ModeRWX}

// ParseMode turns user input into a Mode.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q (want one of %s)", s, joinModes())
}

func joinModes() string {
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// Network says whether the program keeps the host network.
type Network string

const (
	// NetHost keeps the host's network.
	NetHost Network = "host"
	// NetNone gives the program only a loopback interface (sandbox) and
	// denies TCP bind/connect through Landlock (ABI 4 and later).
	NetNone Network = "none"
)

// ParseNetwork turns user input into a Network.
func ParseNetwork(s string) (Network, error) {
	switch Network(s) {
	case NetHost, NetNone:
		return Network(s), nil
	}
	return "", fmt.Errorf("unknown network %q (want host or none)", s)
}
