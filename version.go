package main

import (
	"errors"

	"github.com/omega-run/omega-run/sandbox"
)

// version and commit are stamped by the Makefile (-ldflags -X).
var (
	version = "dev"
	commit  = "unknown"
)

func codeOf(err error) int {
	var se *sandbox.Error
	if errors.As(err, &se) {
		return se.Code
	}
	return sandbox.ExitLauncher
}
