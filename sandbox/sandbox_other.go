//go:build !linux

package sandbox

import (
	"context"
	"os/exec"
)

// InitArg is unused outside Linux; Init is a no-op there.
const InitArg = "__omega_run_init__"

// Init does nothing outside Linux.
func Init() {}

var _ = context.Background
var _ = exec.Command
