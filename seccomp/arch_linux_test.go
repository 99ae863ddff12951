//go:build linux && cgo

package seccomp

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"testing"

	libseccomp "github.com/seccomp/libseccomp-golang"
)

// TestArchTableMatchesLibseccomp checks the facts guard.go relies on
// against the BPF libseccomp generates for each architecture it knows:
// the AUDIT_ARCH token and where the words of an argument are.
func TestArchTableMatchesLibseccomp(t *testing.T) {
	native, err := libseccomp.GetNativeArch()
	if err != nil {
		t.Fatal(err)
	}
	for i := range archTable {
		a := &archTable[i]
		t.Run(a.name, func(t *testing.T) {
			sa, err := libseccomp.GetArchFromString(a.name)
			if err != nil {
				t.Skipf("libseccomp-golang: %v", err)
			}
			v := uint64(2)
			if a.wide {
				v = 0x100000002
			}
			prog, err := singleArchProgram(native, sa, v)
			if err != nil && a.wide {
				// libseccomp treats x32 as a 32-bit ABI; the table
				// deliberately compares x32's 64-bit registers whole.
				prog, err = singleArchProgram(native, sa, 2)
			}
			if err != nil {
				t.Skipf("libseccomp %s: %v", Version(), err)
			}
			if a.bigEndian {
				prog = byteSwap(prog) // libseccomp exports in the ABI's order
			}
			if prog[0] != (insn{code: opLdAbs, k: offArch}) || prog[1].code != opJeq {
				t.Fatalf("unexpected program start %v", prog[:2])
			}
			if prog[1].k != a.token {
				t.Errorf("token = %#x, libseccomp uses %#x", a.token, prog[1].k)
			}
			var loads []uint32
			for _, in := range prog {
				if in.code == opLdAbs && in.k >= 16 && !slices.Contains(loads, in.k) {
					loads = append(loads, in.k)
				}
			}
			lo, hi := a.argOffsets(0)
			want := []uint32{lo}
			if a.wide {
				want = append(want, hi)
			}
			for _, off := range loads {
				if !slices.Contains(want, off) {
					t.Errorf("libseccomp loads offset %d, table says arg0 is at %v", off, want)
				}
			}
			if !slices.Contains(loads, lo) {
				t.Errorf("libseccomp never loads the low word at %d (loads %v)", lo, loads)
			}
		})
	}
}

// singleArchProgram compiles "read(v, …) → EPERM" for one ABI, and
// decodes it as little-endian whatever the ABI.
func singleArchProgram(native, sa libseccomp.ScmpArch, v uint64) ([]insn, error) {
	f, err := libseccomp.NewFilter(libseccomp.ActAllow)
	if err != nil {
		return nil, err
	}
	defer f.Release()
	if sa != native {
		// Remove first: libseccomp refuses to mix byte orders.
		if err := f.RemoveArch(native); err != nil {
			return nil, err
		}
		if err := f.AddArch(sa); err != nil {
			return nil, err
		}
	}
	read, err := libseccomp.GetSyscallFromName("read") // native numbering
	if err != nil {
		return nil, err
	}
	cond, err := libseccomp.MakeCondition(0, libseccomp.CompareEqual, v)
	if err != nil {
		return nil, err
	}
	if err := f.AddRuleConditional(read, libseccomp.ActErrno.SetReturnCode(1), []libseccomp.ScmpCondition{cond}); err != nil {
		return nil, err
	}
	return exportBPF(f, binary.LittleEndian)
}

func byteSwap(prog []insn) []insn {
	out := make([]insn, len(prog))
	for i, in := range prog {
		out[i] = insn{code: bits.ReverseBytes16(in.code), jt: in.jt, jf: in.jf, k: bits.ReverseBytes32(in.k)}
	}
	return out
}
