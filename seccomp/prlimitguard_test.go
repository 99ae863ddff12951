package seccomp

import (
	"bytes"
	"testing"
)

// TestPrlimitGuard runs PrlimitGuard's prologue in front of an allow-all
// program on every ABI of each build: setting another process's limits
// (PID 1's, or a thread's of it) fails, reading them and setting one's
// own (pid 0) pass, and everything else, socket calls included, stays
// the profile's and constant for the kernel's filter cache.
func TestPrlimitGuard(t *testing.T) {
	eperm := retErrno | errEPERM
	for goarch, abis := range hostGuardCalls {
		allowAll := &Program{BPF: encode([]insn{{code: opRetK, k: uint32(retAllow)}}, archForGOARCH(goarch).order())}
		p, err := prlimitGuard(allowAll, goarch)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := decode(p.BPF, archForGOARCH(goarch).order())
		if err != nil {
			t.Fatal(err)
		}
		for _, abi := range abis {
			info, _ := archByName(abi.arch)
			cases := []guardCase{
				{"set own", abi.prlimit, [6]uint64{0, 0, 0x1000}, retAllow},
				{"read PID 1", abi.prlimit, [6]uint64{1, 7, 0, 0x2000}, retAllow},
				{"set PID 1", abi.prlimit, [6]uint64{1, 0, 0x1000}, eperm},
				{"set PID 1's thread", abi.prlimit, [6]uint64{3, 7, 0x1000}, eperm},
				{"set PID 1, high pid bits", abi.prlimit, [6]uint64{0xffffffff00000001, 7, 0x1000}, eperm},
				{"socket mptcp", abi.socket, [6]uint64{2, 1, ipprotoMPTCP}, retAllow},
				{"sendto fastopen", abi.sendto, [6]uint64{3, 0, 1, msgFastOpen}, retAllow},
			}
			if info.wide {
				cases = append(cases, guardCase{"set PID 1, high pointer", abi.prlimit, [6]uint64{1, 7, 1 << 40}, eperm})
			}
			for _, c := range cases {
				got, err := run(prog, call{nr: c.nr, arch: info, args: c.args})
				if err != nil || got != c.want {
					t.Errorf("%s/%s %s: %#x (%v), want %#x", goarch, abi.arch, c.name, uint32(got), err, uint32(c.want))
				}
			}
			for _, nr := range []uint32{0, 1, 16, 39, abi.socket, abi.prlimit + 1} {
				if !constAllow(prog, call{nr: nr, arch: info}) {
					t.Errorf("%s/%s: syscall %d is not constant-allow", goarch, abi.arch, nr)
				}
			}
		}
	}
}

// TestHostGuardReplacesPrlimitGuard: sandbox mode's filter carries the
// prlimit guard; the fallback without user namespaces puts the host
// guard, which holds the same check, in front of it. The result is the
// host guard on the profile's program, not the prlimit check twice.
func TestHostGuardReplacesPrlimitGuard(t *testing.T) {
	for goarch := range hostGuardCalls {
		allowAll := &Program{BPF: encode([]insn{{code: opRetK, k: uint32(retAllow)}}, archForGOARCH(goarch).order()), Flags: 1}
		guarded, err := prlimitGuard(allowAll, goarch)
		if err != nil {
			t.Fatal(err)
		}
		for _, denyTCP := range []bool{false, true} {
			want, err := hostGuard(allowAll, denyTCP, goarch)
			if err != nil {
				t.Fatal(err)
			}
			got, err := hostGuard(guarded, denyTCP, goarch)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.BPF, want.BPF) || got.Flags != want.Flags {
				t.Errorf("%s denyTCP=%v: %d instructions, want the host guard's %d", goarch, denyTCP, got.Len(), want.Len())
			}
		}
	}
}
