package seccomp

import (
	"fmt"
	"testing"
)

// TestHostGuard runs the prologue in front of an allow-all program on
// every ABI of each build: what it fails, with which errno, what it lets
// through to the profile, and that calls it does not name stay constant
// for the kernel's filter cache.
func TestHostGuard(t *testing.T) {
	allowAll := func(goarch string) *Program {
		return &Program{BPF: encode([]insn{{code: opRetK, k: uint32(retAllow)}}, archForGOARCH(goarch).order())}
	}
	eperm, eopnotsupp, eprotonosupport := retErrno|errEPERM, retErrno|ret(errEOPNOTSUPP), retErrno|ret(errEPROTONOSUPPORT)
	for goarch, abis := range hostGuardCalls {
		for _, denyTCP := range []bool{false, true} {
			p, err := hostGuard(allowAll(goarch), denyTCP, goarch)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := decode(p.BPF, archForGOARCH(goarch).order())
			if err != nil {
				t.Fatal(err)
			}
			tcp := func(r ret) ret {
				if denyTCP {
					return r
				}
				return retAllow
			}
			for _, abi := range abis {
				info, _ := archByName(abi.arch)
				cases := []guardCase{
					{"prlimit self", abi.prlimit, [6]uint64{0, 7, 0x1000}, retAllow},
					{"prlimit read other", abi.prlimit, [6]uint64{4242, 7, 0, 0x2000}, retAllow},
					{"prlimit set other", abi.prlimit, [6]uint64{4242, 7, 0x1000}, eperm},
					{"prlimit set other, high pid bits", abi.prlimit, [6]uint64{0xffffffff00000000 | 4242, 7, 0x1000}, eperm},
					{"prlimit self, high pid bits", abi.prlimit, [6]uint64{0xffffffff00000000, 7, 0x1000}, retAllow},
					{"sendto", abi.sendto, [6]uint64{3, 0, 1, 0x40}, retAllow},
					{"sendto fastopen", abi.sendto, [6]uint64{3, 0, 1, msgFastOpen | 0x40}, tcp(eopnotsupp)},
					{"sendmsg fastopen", abi.sendmsg, [6]uint64{3, 0, msgFastOpen}, tcp(eopnotsupp)},
					{"sendmmsg fastopen", abi.sendmmsg, [6]uint64{3, 0, 1, msgFastOpen}, tcp(eopnotsupp)},
					{"socket tcp", abi.socket, [6]uint64{2, 1, 6}, retAllow},
					{"socket mptcp", abi.socket, [6]uint64{2, 1, ipprotoMPTCP}, tcp(eprotonosupport)},
					{"socket mptcp, high bits", abi.socket, [6]uint64{10, 1, 1<<32 | ipprotoMPTCP}, tcp(eprotonosupport)},
					{"io_uring_setup", abi.ioUringSetup(), [6]uint64{8}, tcp(retErrno | errENOSYS)},
				}
				if info.wide {
					cases = append(cases, guardCase{"prlimit set other, high pointer", abi.prlimit, [6]uint64{4242, 7, 1 << 40}, eperm})
				}
				if abi.socketcall != 0 {
					cases = append(cases, guardCase{"socketcall sendto", abi.socketcall, [6]uint64{11}, tcp(eperm)},
						guardCase{"socketcall connect", abi.socketcall, [6]uint64{3}, retAllow})
				}
				for _, c := range cases {
					got, err := run(prog, call{nr: c.nr, arch: info, args: c.args})
					if err != nil || got != c.want {
						t.Errorf("%s/%s denyTCP=%v %s: %#x (%v), want %#x", goarch, abi.arch, denyTCP, c.name, uint32(got), err, uint32(c.want))
					}
				}
				for _, nr := range []uint32{0, 1, 39, 60, abi.prlimit + 1} {
					if !constAllow(prog, call{nr: nr, arch: info}) {
						t.Errorf("%s/%s: syscall %d is not constant-allow", goarch, abi.arch, nr)
					}
				}
			}
		}
	}
}

type guardCase struct {
	name string
	nr   uint32
	args [6]uint64
	want ret
}

// TestHostGuardNumbers: the native ABI's numbers are x/sys/unix's.
func TestHostGuardNumbers(t *testing.T) {
	want, ok := nativeGuardNumbers()
	if !ok {
		t.Skip("no native numbers on this GOARCH")
	}
	if got := fmt.Sprint(hostGuardCalls[want.arch][0]); got != fmt.Sprint(want) {
		t.Errorf("table %s, x/sys/unix %s", got, fmt.Sprint(want))
	}
}
