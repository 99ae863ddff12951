package seccomp

import (
	"fmt"
	"runtime"
)

// A program that shares the host's pid and network namespaces (rx mode,
// or sandbox mode without user namespaces) reaches two things that
// neither Landlock nor a profile covers there:
//
//   - prlimit(2) on another process of its user: Landlock scopes signals,
//     not prlimit, which needs only the same uid. A hard limit set to 0
//     cannot be raised again, and RLIMIT_CPU kills: any of the user's
//     processes (root: every process) could be crippled or killed.
//   - with --net none, TCP that Landlock does not see: a sendto, sendmsg
//     or sendmmsg with MSG_FASTOPEN connects without the connect hook, and
//     an MPTCP socket is not a TCP socket to Landlock's rules.
//
// HostGuard puts a prologue in front of a profile's program that fails
// these calls: prlimit64 with a pid other than 0 (the caller) and new
// limits (EPERM: reading another process's limits stays possible); with
// denyTCP, MSG_FASTOPEN (EOPNOTSUPP, as with Fast Open switched off:
// programs connect instead) and socket(…, IPPROTO_MPTCP) (EPROTONOSUPPORT:
// programs fall back to TCP), io_uring_setup (ENOSYS: a ring's socket and
// connect operations are no syscalls), and socketcall's socket and send
// calls on ABIs that have it, whose arguments a filter cannot read. Anything else
// falls through to the profile's program, which loads what it needs again.
// On a program PrlimitGuard guarded (sandbox mode's, run in the fallback
// without namespaces) it takes that guard's place.
func HostGuard(p *Program, denyTCP bool) (*Program, error) {
	return hostGuard(p, denyTCP, runtime.GOARCH)
}

// guardABI holds one ABI's numbers for HostGuard.
type guardABI struct {
	arch                                       string
	prlimit, socket, sendto, sendmsg, sendmmsg uint32
	socketcall                                 uint32 // 0: none
}

// hostGuardCalls lists, per GOARCH, the ABIs a program of that build can
// use (as connectCalls does) and their numbers.
var hostGuardCalls = map[string][]guardABI{
	"amd64": {
		{arch: "amd64", prlimit: 302, socket: 41, sendto: 44, sendmsg: 46, sendmmsg: 307},
		{arch: "x32", prlimit: x32 | 302, socket: x32 | 41, sendto: x32 | 44, sendmsg: x32 | 518, sendmmsg: x32 | 538},
		{arch: "x86", prlimit: 340, socket: 359, sendto: 369, sendmsg: 370, sendmmsg: 345, socketcall: 102},
	},
	"arm64": {
		{arch: "arm64", prlimit: 261, socket: 198, sendto: 206, sendmsg: 211, sendmmsg: 269},
		{arch: "arm", prlimit: 369, socket: 281, sendto: 290, sendmsg: 296, sendmmsg: 374},
	},
}

const (
	x32                = 0x40000000 // __X32_SYSCALL_BIT
	msgFastOpen        = 0x20000000
	ipprotoMPTCP       = 262
	errENOSYS          = 38
	errEOPNOTSUPP      = 95
	errEPROTONOSUPPORT = 93
)

func hostGuard(p *Program, denyTCP bool, goarch string) (*Program, error) {
	if p.unguarded != nil { // its prlimit check is the host guard's own
		p = p.unguarded
	}
	return withPrologue(p, goarch, "host guard", func(a *assembler, abi guardABI, info *archInfo, end label) {
		guardABICalls(a, abi, info, denyTCP, end)
	})
}

// withPrologue puts in front of p a prologue that emit writes for each
// ABI of goarch: emit gets the syscall number in A and returns or jumps
// to end for a call it matches, falls through for any other.
func withPrologue(p *Program, goarch, what string, emit func(a *assembler, abi guardABI, info *archInfo, end label)) (*Program, error) {
	list, ok := hostGuardCalls[goarch]
	native := archForGOARCH(goarch)
	if !ok || native == nil {
		return nil, fmt.Errorf("%s: no syscall numbers for %s", what, goarch)
	}
	if len(p.BPF) == 0 || len(p.BPF)%insnSize != 0 {
		return nil, fmt.Errorf("%s: a program of %d bytes", what, len(p.BPF))
	}
	infos := map[string]*archInfo{}
	for _, abi := range list {
		var err error
		if infos[abi.arch], err = archByName(abi.arch); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	var a assembler
	end := a.newLabel()
	for len(list) > 0 {
		// The ABIs of one AUDIT_ARCH token (x86_64 and x32) are checked
		// in one block: their numbers differ (x32's carry its bit).
		token := infos[list[0].arch].token
		n := 1
		for n < len(list) && infos[list[n].arch].token == token {
			n++
		}
		skip := a.newLabel()
		a.ld(offArch)
		a.unless(opJeq, token, skip)
		a.ld(offNr)
		for _, abi := range list[:n] {
			emit(&a, abi, infos[abi.arch], end)
		}
		a.ja(end)
		a.bind(skip)
		list = list[n:]
	}
	a.bind(end)
	prologue, err := a.link()
	if err != nil {
		return nil, err
	}
	if n := len(prologue) + len(p.BPF)/insnSize; n > maxInsns {
		return nil, fmt.Errorf("%s: %d instructions, the kernel takes at most %d", what, n, maxInsns)
	}
	// The body's bytes as they are: the prologue jumps only within itself.
	return &Program{BPF: append(encode(prologue, native.order()), p.BPF...), Flags: p.Flags}, nil
}

// guardABICalls emits the checks of one ABI. A holds the syscall number
// on entry and on every fall-through; a matched call returns or jumps to
// end, never falls through.
func guardABICalls(a *assembler, abi guardABI, info *archInfo, denyTCP bool, end label) {
	deny := func(errno uint32) { a.ret(retErrno | ret(errno)) }
	arg := func(i int) (lo, hi uint32) { return info.argOffsets(i) }

	guardPrlimit(a, abi, info, end)
	if !denyTCP {
		return
	}
	flagsAt := map[uint32]int{abi.sendto: 3, abi.sendmsg: 2, abi.sendmmsg: 3}
	for _, nr := range []uint32{abi.sendto, abi.sendmsg, abi.sendmmsg} {
		next := a.newLabel()
		a.jmp(opJeq, nr, fallThrough, next)
		lo, _ := arg(flagsAt[nr])
		a.ld(lo)
		a.jmp(opJset, msgFastOpen, fallThrough, end)
		deny(errEOPNOTSUPP)
		a.bind(next)
	}
	next := a.newLabel()
	a.jmp(opJeq, abi.socket, fallThrough, next)
	lo, _ := arg(2)
	a.ld(lo)
	a.jmp(opJeq, ipprotoMPTCP, fallThrough, end)
	deny(errEPROTONOSUPPORT)
	a.bind(next)
	// An io_uring's IORING_OP_SOCKET and IORING_OP_CONNECT would do the
	// same without a syscall this prologue sees: ENOSYS, as the built-in
	// profiles answer, for a custom profile that allows it.
	next = a.newLabel()
	a.jmp(opJeq, abi.ioUringSetup(), fallThrough, next)
	deny(errENOSYS)
	a.bind(next)
	if abi.socketcall != 0 {
		next := a.newLabel()
		a.jmp(opJeq, abi.socketcall, fallThrough, next)
		lo, _ := arg(0)
		a.ld(lo)
		refuse := a.newLabel()
		for _, call := range []uint32{1, 11, 16, 20} { // SYS_SOCKET, SYS_SENDTO, SYS_SENDMSG, SYS_SENDMMSG
			a.jmp(opJeq, call, refuse, fallThrough)
		}
		a.ja(end)
		a.bind(refuse)
		deny(errEPERM)
		a.bind(next)
	}
}

// DescribeHostGuard says what HostGuard adds, in Describe's words, and
// why it is there: the program shares the host's pid and network
// namespaces, or (handedInet) is handed, in a sandbox of its own, a
// socket of the host's network namespace or a unix socket a host peer
// may pass one over.
func DescribeHostGuard(denyTCP, handedInet bool) string {
	why := "for a program in the host's pid and network namespaces"
	if handedInet {
		why = "for a program handed an internet socket (the host's network namespace's) or a unix one, or given an --allow-socket (a unix socket's host peer may pass one)"
	}
	s := "\nin front, " + why + ":\n" +
		"  prlimit64\n    fail with EPERM if arg0 != 0 and arg2 != 0  (another process's limits set: Landlock scopes signals, not prlimit)\n"
	if denyTCP {
		s += "  sendto, sendmmsg\n    fail with EOPNOTSUPP if arg3 & 0x20000000  (MSG_FASTOPEN connects past Landlock's TCP rule)\n" +
			"  sendmsg\n    fail with EOPNOTSUPP if arg2 & 0x20000000  (MSG_FASTOPEN)\n" +
			"  socket\n    fail with EPROTONOSUPPORT if arg2 == 262  (IPPROTO_MPTCP: not TCP to Landlock)\n" +
			"  io_uring_setup\n    fail with ENOSYS  (a ring's socket and connect are no syscalls)\n" +
			"  socketcall (32-bit ABIs)\n    fail with EPERM for SYS_SOCKET, SYS_SENDTO, SYS_SENDMSG, SYS_SENDMMSG  (their arguments cannot be read)\n"
	}
	return s
}

// SummarizeHostGuard is DescribeHostGuard in one line, as Summarize
// puts it.
func SummarizeHostGuard(denyTCP, handedInet bool) string {
	why := "in the host's namespaces"
	if handedInet {
		why = "handed an internet or unix socket, or an --allow-socket (the host's network)"
	}
	s := "in front, " + why + ": prlimit64 setting another process's limits"
	if denyTCP {
		s += "; MSG_FASTOPEN, MPTCP sockets, io_uring_setup, socketcall (TCP Landlock would not see)"
	}
	return s + "\n"
}

// ioUringSetup is io_uring_setup's number on the ABI (one number on
// every ABI, x32's with its bit).
func (g guardABI) ioUringSetup() uint32 {
	if g.arch == "x32" {
		return x32 | ioUringSetup
	}
	return ioUringSetup
}
