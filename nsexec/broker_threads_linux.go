//go:build linux && (!cgo || omega_goinit)

package nsexec

// broker_threads_linux.go: how many of the broker's calls are at work at
// once. Each call at work makes system calls, and one in a system call
// holds one of PID 1's OS threads: a connect that waits (for room in a
// unix listener's backlog, for a TCP handshake) for a whole slice
// (broker_signal_linux.go), the others for as long as the machine takes
// to run them. The Go runtime meanwhile wants another thread for its
// other goroutines, and once the program holds every process its nproc
// or --pids allows, PID 1 can start none: a few children connecting at
// once to a listener that does not accept made the runtime end PID 1
// ("fatal error: newosproc", status 2, the program killed). So the
// calls take turns in workSlots slots, which the spare threads
// (pid1warm_linux.go) cover with room for the runtime's P (maxPID1Procs)
// and a signal's forwarding; the others wait in a channel, which parks
// a goroutine, not a thread. Turns are
// first come, first served: a connect whose slice passed, still waiting,
// queues again behind the others (yieldTurn), so many waiting connects
// delay another call by their number over workSlots slices at most.

// workSlots is how many calls may be at work at once in a PID 1 that
// started spare idle threads: a third of them (two of six: with three,
// 4 of 8 runs of TestConnectsWhileProcessesHeld's program still
// crashed with two Ps); one where it started none.
func workSlots(spare int) int {
	return max(1, spare/3)
}

// takeTurn waits for a slot to work in.
func (b *goBroker) takeTurn() { b.turns <- struct{}{} }

// endTurn gives the slot back.
func (b *goBroker) endTurn() { <-b.turns }

// yieldTurn lets the calls waiting for a slot go first.
func (b *goBroker) yieldTurn() {
	b.endTurn()
	b.takeTurn()
}
