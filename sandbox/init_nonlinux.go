//go:build !linux

package sandbox

// InitArg is argv[1] of the init stage, which exists only on Linux.
const InitArg = "__omega_run_init__"

// Init does nothing outside Linux: macOS runs sandbox-exec and other
// systems run the program plainly, neither through an init stage.
func Init() {}

// Release does nothing outside Linux: no init stage is started early.
func Release() {}
