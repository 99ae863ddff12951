//go:build !linux

package sandbox

import "github.com/omega-run/omega-run/profiles"

// InitArg is argv[1] of the init stage, which exists only on Linux.
const InitArg = "__omega_run_init__"

// Init does nothing outside Linux: macOS runs sandbox-exec and other
// systems run the program plainly, neither through an init stage.
func Init() {}

// Release does nothing outside Linux: no init stage is started early.
func Release() {}

// checkPlanted has no init stage to protect here.
func checkPlanted(profiles.Policy) (map[string]string, error) { return nil, nil }

// gitScan is Linux's look at the repositories a sandbox may change.
type gitScan struct{}
