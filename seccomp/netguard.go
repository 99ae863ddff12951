package seccomp

import "runtime"

// vsock (AF_VSOCK) does not heed network namespaces: its ports are one
// space for the whole machine (a program in a new network namespace that
// listens on a port holds it on the host) and its peers are the
// hypervisor (CID 2) and the host's vsock services. A namespace with
// loopback only leaves it as it was, and Landlock has no rules for it.
// The built-in profiles refuse it always (as Docker's default does);
// NetNoneGuard refuses it under any profile when --net none promises no
// network, custom ones included.
//
// NetNoneGuard puts a prologue in front of a profile's program that fails
// socket(AF_VSOCK, …) with EAFNOSUPPORT, what a kernel without vsock
// answers (programs fall back or say vsock is missing), and socketcall's
// SYS_SOCKET on ABIs that have it with EPERM, as HostGuard does: a filter
// cannot read its arguments; and io_uring_setup with ENOSYS, as HostGuard
// does, since a ring's IORING_OP_SOCKET is no socket(2) call the filter
// sees. Anything else falls through to the profile.
func NetNoneGuard(p *Program) (*Program, error) { return netNoneGuard(p, runtime.GOARCH) }

const (
	afVsock         = 40
	errEAFNOSUPPORT = 97 // on every ABI in hostGuardCalls
	sysSocket       = 1  // socketcall's SYS_SOCKET
)

func netNoneGuard(p *Program, goarch string) (*Program, error) {
	return withPrologue(p, goarch, "--net none guard", func(a *assembler, abi guardABI, info *archInfo, end label) {
		// io_uring's IORING_OP_SOCKET makes a socket without socket(2).
		next := a.newLabel()
		a.jmp(opJeq, abi.ioUringSetup(), fallThrough, next)
		a.ret(retErrno | errENOSYS)
		a.bind(next)
		next = a.newLabel()
		a.jmp(opJeq, abi.socket, fallThrough, next)
		lo, _ := info.argOffsets(0)
		a.ld(lo) // int family: the kernel reads the low word only
		a.jmp(opJeq, afVsock, fallThrough, end)
		a.ret(retErrno | ret(errEAFNOSUPPORT))
		a.bind(next)
		if abi.socketcall == 0 {
			return
		}
		next = a.newLabel()
		a.jmp(opJeq, abi.socketcall, fallThrough, next)
		a.ld(lo)
		a.jmp(opJeq, sysSocket, fallThrough, end)
		a.ret(retErrno | errEPERM)
		a.bind(next)
	})
}

// DescribeNetNoneGuard says what NetNoneGuard adds, in Describe's words.
func DescribeNetNoneGuard() string {
	return "\nin front, with --net none (vsock ignores network namespaces):\n" +
		"  socket\n    fail with EAFNOSUPPORT if arg0 == 40  (AF_VSOCK: one port space for the machine, the hypervisor in reach)\n" +
		"  socketcall (32-bit ABIs)\n    fail with EPERM for SYS_SOCKET  (its arguments cannot be read)\n" +
		"  io_uring_setup\n    fail with ENOSYS  (a ring's IORING_OP_SOCKET is no socket call)\n"
}

// SummarizeNetNoneGuard is DescribeNetNoneGuard in one line, as
// Summarize puts it.
func SummarizeNetNoneGuard() string {
	return "in front, with --net none: vsock sockets, io_uring_setup, socketcall's SYS_SOCKET (vsock ignores network namespaces)\n"
}
