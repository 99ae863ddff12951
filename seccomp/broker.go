package seccomp

import (
	"fmt"
	"runtime"
)

// retUserNotif is SECCOMP_RET_USER_NOTIF: the call waits for the
// supervisor holding the filter's listener fd, which answers it.
const retUserNotif ret = 0x7fc00000

// connectCalls lists, per GOARCH, the ABIs a program of that build can
// use and their connect(2) number, and where the ABI has one, the number
// of socketcall(2), through which old 32-bit C libraries connect.
var connectCalls = map[string][]brokerABI{
	"amd64": {
		{arch: "amd64", connect: 42},
		{arch: "x32", connect: 0x40000000 | 42},
		{arch: "x86", connect: 362, socketcall: 102},
	},
	"arm64": {
		{arch: "arm64", connect: 203},
		{arch: "arm", connect: 283, socketcall: 102},
	},
}

type brokerABI struct {
	arch       string
	connect    uint32
	socketcall uint32 // 0: none
	info       *archInfo
}

// ioUringSetup is io_uring_setup's number on every ABI (the syscall table
// was unified before it was added), plus __X32_SYSCALL_BIT on x32.
const ioUringSetup = 425

func (b brokerABI) ioUringSetup() uint32 {
	if b.arch == "x32" {
		return 0x40000000 | ioUringSetup
	}
	return ioUringSetup
}

// groupByToken groups ABIs that share an AUDIT_ARCH token (x86_64 and
// x32), keeping their order.
func groupByToken(abis []brokerABI) [][]brokerABI {
	var groups [][]brokerABI
	for _, abi := range abis {
		if n := len(groups); n > 0 && groups[n-1][0].info.token == abi.info.token {
			groups[n-1] = append(groups[n-1], abi)
			continue
		}
		groups = append(groups, []brokerABI{abi})
	}
	return groups
}

// ConnectBroker returns the filter that hands every connect(2) of the
// program to a supervisor (SECCOMP_RET_USER_NOTIF), which decides where
// a unix socket may be reached and performs the connect itself. It is
// the connect rule of the sandbox on kernels without Landlock's
// RESOLVE_UNIX. socketcall(SYS_CONNECT), which 32-bit glibc uses, goes
// to the supervisor too (its arguments sit behind a pointer the
// supervisor follows). io_uring_setup fails with ENOSYS: an io_uring's
// IORING_OP_CONNECT would connect without a syscall the filter sees.
// Every other syscall is allowed: this filter comes on top of the
// profile, which decides everything else.
func ConnectBroker() (*Program, error) { return connectBroker(runtime.GOARCH, retAllow) }

// WithConnectBroker is p and ConnectBroker as one filter: each return of p
// that lets a call through (allow, log, trace) jumps to a copy of the
// broker's program that ends in that return. The kernel would run a second
// filter on every call p inspects (openat, ioctl), ~70 ns each; and as with
// two filters, p's refusals still win over the broker's notification.
func WithConnectBroker(p *Program) (*Program, error) { return withConnectBroker(p, runtime.GOARCH) }

func withConnectBroker(p *Program, goarch string) (*Program, error) {
	native := archForGOARCH(goarch)
	if native == nil {
		return nil, fmt.Errorf("connect broker: unknown GOARCH %s", goarch)
	}
	prog, err := decode(p.BPF, native.order())
	if err != nil {
		return nil, err
	}
	tails := map[uint32]int{} // a letting-through return → where its copy starts
	var out []insn
	for i, in := range prog {
		if in.code != opRetK || !letsThrough(ret(in.k)) {
			continue
		}
		at, ok := tails[in.k]
		if !ok {
			tail, err := connectBroker(goarch, ret(in.k))
			if err != nil {
				return nil, err
			}
			body, _ := decode(tail.BPF, native.order())
			at = len(prog) + len(out)
			tails[in.k] = at
			out = append(out, body...)
		}
		prog[i] = insn{code: opJa, k: uint32(at - i - 1)}
	}
	if n := len(prog) + len(out); n > maxInsns {
		return nil, fmt.Errorf("connect broker: %d instructions with the profile, the kernel takes at most %d", n, maxInsns)
	}
	return &Program{BPF: encode(append(prog, out...), native.order()), Flags: p.Flags}, nil
}

// letsThrough tells the returns below SECCOMP_RET_USER_NOTIF in the
// kernel's precedence, which the notification overrides.
func letsThrough(r ret) bool {
	return r == retAllow || r == retLog || r&0xffff0000 == retTrace
}

func connectBroker(goarch string, through ret) (*Program, error) {
	list, ok := connectCalls[goarch]
	native := archForGOARCH(goarch)
	if !ok || native == nil {
		return nil, fmt.Errorf("connect broker: no connect(2) numbers for %s", goarch)
	}
	abis := make([]brokerABI, len(list))
	for i, abi := range list {
		info, err := archByName(abi.arch)
		if err != nil {
			return nil, fmt.Errorf("connect broker: %w", err)
		}
		abis[i] = abi
		abis[i].info = info
	}
	var a assembler
	allow, notify, noUring := a.newLabel(), a.newLabel(), a.newLabel()
	for _, group := range groupByToken(abis) {
		skip := a.newLabel()
		a.ld(offArch)
		a.unless(opJeq, group[0].info.token, skip)
		a.ld(offNr)
		for _, abi := range group {
			a.jmp(opJeq, abi.connect, notify, fallThrough)
			a.jmp(opJeq, abi.ioUringSetup(), noUring, fallThrough)
			if abi.socketcall == 0 {
				continue
			}
			notSocketcall := a.newLabel()
			a.jmp(opJeq, abi.socketcall, fallThrough, notSocketcall)
			lo, _ := abi.info.argOffsets(0)
			a.ld(lo)
			a.jmp(opJeq, 3, notify, allow) // SYS_CONNECT
			a.bind(notSocketcall)
		}
		a.ja(allow)
		a.bind(skip)
	}
	// An ABI the build does not know cannot occur on its kernel; should
	// one, it gets no syscalls rather than an unbrokered connect.
	a.ret(retErrno | errEPERM)
	a.bind(allow)
	a.ret(through)
	a.bind(notify)
	a.ret(retUserNotif)
	a.bind(noUring)
	a.ret(retErrno | 38) // ENOSYS
	prog, err := a.link()
	if err != nil {
		return nil, err
	}
	return &Program{BPF: encode(prog, native.order())}, nil
}
