package nsexec

import (
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// spareThreads is how many idle threads the Go PID 1 starts before it
// counts its own tasks and starts the program (warmThreads).
const spareThreads = 6

// warmed is how many spare threads this PID 1 started (warmThreads);
// the connect broker lets half that many calls work at once (workSlots).
//
//lint:ignore U1000 read by the Go init stage's broker (broker_linux.go), which a cgo build leaves out
var warmed int

// maxPID1Procs bounds the Go PID 1's GOMAXPROCS. Each P that runs
// goroutines wants a thread of its own, and PID 1 has only those it
// started before its tasks were counted: with one P per CPU of a large
// machine, or a caller's GOMAXPROCS=32 (inherited), a burst of brokered
// connects woke more Ps than it had threads, and the runtime ended it
// (fatal error: newosproc). PID 1 forwards signals, reaps and brokers
// connects: two are plenty.
const maxPID1Procs = 1

// capProcs lowers GOMAXPROCS to maxPID1Procs, before warmThreads.
func capProcs() {
	if runtime.GOMAXPROCS(0) > maxPID1Procs {
		runtime.GOMAXPROCS(maxPID1Procs)
	}
}

// warmWanted tells whether the caller's nproc leaves room for the spare
// threads: below 32 processes (the program's share half of it) they
// would take most of what the program could start (a caller's 20 left
// it none with the launcher's threads), and it gets them instead.
func warmWanted() bool {
	var l unix.Rlimit
	return unix.Getrlimit(unix.RLIMIT_NPROC, &l) != nil || l.Cur >= 32
}

// warmThreads makes the Go runtime start n more OS threads now, which it
// then keeps idle for its later needs. Once the program holds every
// process its nproc or --pids allows, PID 1 can start none: a signal to
// forward or a zombie to reap made the runtime want one more thread than
// it had (9 here), and it ends the process when it cannot get one
// ("fatal error: newosproc", status 2, the program killed). Started
// here, they are counted with PID 1's own tasks, which the program's
// nproc gets on top. Each goroutine holds a thread of its own while all
// are locked; unlocked before they end, the threads stay.
func warmThreads(n int) {
	var locked, done sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			locked.Done()
			<-release
			runtime.UnlockOSThread()
		}()
	}
	locked.Wait()
	close(release)
	done.Wait()
	warmed = n
}
