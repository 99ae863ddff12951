package sandbox

import (
	"errors"
	"os"
	"sync/atomic"

	"github.com/omega-run/omega-run/nsexec"
)

// InitArg is argv[1] of the re-executed init stage: a package init
// function that must not run there (see Init) can test os.Args for it.
const InitArg = nsexec.InitArg

// Init must be the first statement of main in any binary that uses this
// package on Linux. It returns at once unless this process is the init
// stage, which never returns.
//
// A cgo build's init stage is C code that runs before the Go runtime
// starts. A build without cgo (or with -tags omega_goinit) runs this
// binary's Go code up to Init as its init stage: every package's init
// functions, and whatever main does before Init, run again there, with
// the program's stdin, stdout and stderr (a line printed lands in its
// output), and goroutines they start go on running in sandbox mode's PID
// 1 for as long as the program runs. Keep init functions quiet and free
// of side effects, or have them return early when os.Args[1] is InitArg.
// A command made without Init is refused in such a build; with cgo,
// Init costs nothing and keeps the binary right for both.
func Init() {
	initCalled.Store(true)
	if len(os.Args) > 1 && os.Args[1] == InitArg {
		nsexec.Init()
	}
	if len(os.Args) > 1 && os.Args[1] == ptyGuardArg {
		runPtyGuard()
	}
}

// initCalled: Init ran. A build whose init stage is the Go one re-runs
// main to start it, so a command without Init would start main again —
// over and over, in rx mode.
var initCalled atomic.Bool

var errNoInit = errors.New("sandbox.Init was not called as the first statement of main (of TestMain in a test binary): this build (without cgo, or -tags omega_goinit) starts the init stage by running main again")

// probe is nsexec.Probe, refused where it would run main again instead
// of the init stage (and report namespaces it never tried).
func probe() error {
	if !nsexec.CInit && !initCalled.Load() {
		return errNoInit
	}
	if nsexec.CapsetKills() { // the probe's init stage would die of it
		return errCapsetKills
	}
	return startErr(nsexec.Probe())
}

// Release kills and reaps the init stage the omega-run CLI started before
// the Go runtime when no launch took it (a failed command line, another
// command): the CLI calls it before it exits.
func Release() { nsexec.DropPrestarted() }
