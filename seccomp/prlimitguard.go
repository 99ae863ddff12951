package seccomp

import "runtime"

// In sandbox mode the program shares a pid namespace with PID 1, of its
// uid, whose limits prlimit(2) may set like any process's of the same
// uid: RLIMIT_CPU kills PID 1 (and with it its after-run checks: a
// read-only bind replaced on the host goes unreported), RLIMIT_NOFILE 0
// breaks it and its connect broker. PID 1 is not only pid 1: its threads
// (the C connect broker's workers, the Go runtime's) have tids of their
// own, started at any time, and a prlimit on any of them sets PID 1's
// limits. A filter cannot tell them from the program's processes, nor
// the caller's own pid, so PrlimitGuard refuses what HostGuard refuses
// outside a pid namespace: prlimit64 with a pid other than 0 and new
// limits fails with EPERM. Reading stays possible; pid 0, setrlimit and
// ulimit work.
func PrlimitGuard(p *Program) (*Program, error) { return prlimitGuard(p, runtime.GOARCH) }

func prlimitGuard(p *Program, goarch string) (*Program, error) {
	g, err := withPrologue(p, goarch, "prlimit guard", guardPrlimit)
	if err != nil {
		return nil, err
	}
	g.unguarded = p
	return g, nil
}

// guardPrlimit emits HostGuard's and PrlimitGuard's prlimit64 check for
// one ABI; A holds the syscall number on entry and on fall-through.
func guardPrlimit(a *assembler, abi guardABI, info *archInfo, end label) {
	next := a.newLabel()
	a.jmp(opJeq, abi.prlimit, fallThrough, next)
	lo, _ := info.argOffsets(0)
	a.ld(lo) // pid_t: the kernel reads the low word only
	a.jmp(opJeq, 0, end, fallThrough)
	lo, hi := info.argOffsets(2)
	a.ld(lo)
	if info.wide {
		limitSet := a.newLabel()
		a.jmp(opJeq, 0, fallThrough, limitSet)
		a.ld(hi)
		a.jmp(opJeq, 0, end, fallThrough)
		a.bind(limitSet)
	} else {
		a.jmp(opJeq, 0, end, fallThrough)
	}
	a.ret(retErrno | errEPERM)
	a.bind(next)
}

// DescribePrlimitGuard says what PrlimitGuard adds, in Describe's words.
func DescribePrlimitGuard() string {
	return "\nin front, in sandbox mode (PID 1 and its threads share the program's pid namespace and uid):\n" +
		"  prlimit64\n    fail with EPERM if arg0 != 0 and arg2 != 0  (another process's limits set: PID 1's would kill or cripple it)\n"
}

// SummarizePrlimitGuard is DescribePrlimitGuard in one line, as
// Summarize puts it.
func SummarizePrlimitGuard() string {
	return "in front, in sandbox mode: prlimit64 setting another process's limits (PID 1's threads included)\n"
}
