package main

import "github.com/omega-run/omega-run/sandbox"

// runInitIfRequested hands over to the init stage when this process is
// the re-executed /proc/self/exe (argv[1] is sandbox.InitArg). The init
// stage never parses flags or the environment as the CLI does, and never
// returns.
func runInitIfRequested() { sandbox.Init() }
