package seccomp

import "testing"

// TestNetNoneGuard runs the --net none prologue in front of an allow-all
// program on every ABI of each build: socket(AF_VSOCK) fails with
// EAFNOSUPPORT, other families and calls reach the profile, socketcall's
// SYS_SOCKET fails, and unrelated calls stay constant for the filter
// cache.
func TestNetNoneGuard(t *testing.T) {
	eafnosupport := retErrno | ret(errEAFNOSUPPORT)
	for goarch, abis := range hostGuardCalls {
		order := archForGOARCH(goarch).order()
		p, err := netNoneGuard(&Program{BPF: encode([]insn{{code: opRetK, k: uint32(retAllow)}}, order)}, goarch)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := decode(p.BPF, order)
		if err != nil {
			t.Fatal(err)
		}
		for _, abi := range abis {
			info, _ := archByName(abi.arch)
			cases := []guardCase{
				{"socket vsock", abi.socket, [6]uint64{afVsock, 1}, eafnosupport},
				{"socket vsock dgram, cloexec", abi.socket, [6]uint64{afVsock, 2 | 0x80000}, eafnosupport},
				{"socket vsock, high bits", abi.socket, [6]uint64{1<<32 | afVsock, 1}, eafnosupport},
				{"socket inet", abi.socket, [6]uint64{2, 1, 6}, retAllow},
				{"socket unix", abi.socket, [6]uint64{1, 1}, retAllow},
				{"socket netlink", abi.socket, [6]uint64{16, 3}, retAllow},
				{"prlimit", abi.prlimit, [6]uint64{4242, 7, 0x1000}, retAllow},
				{"io_uring_setup", abi.ioUringSetup(), [6]uint64{8}, retErrno | errENOSYS},
			}
			if abi.socketcall != 0 {
				cases = append(cases, guardCase{"socketcall socket", abi.socketcall, [6]uint64{sysSocket}, retErrno | errEPERM},
					guardCase{"socketcall connect", abi.socketcall, [6]uint64{3}, retAllow})
			}
			for _, c := range cases {
				got, err := run(prog, call{nr: c.nr, arch: info, args: c.args})
				if err != nil || got != c.want {
					t.Errorf("%s/%s %s: %#x (%v), want %#x", goarch, abi.arch, c.name, uint32(got), err, uint32(c.want))
				}
			}
			for _, nr := range []uint32{0, 1, 39, 60, abi.prlimit} {
				if !constAllow(prog, call{nr: nr, arch: info}) {
					t.Errorf("%s/%s: syscall %d is not constant-allow", goarch, abi.arch, nr)
				}
			}
		}
	}
}
