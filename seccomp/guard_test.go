package seccomp

import (
	"math/rand/v2"
	"testing"
)

// holds is what a condition means, in Go, for an argument as an ABI
// delivers it (32-bit ABIs have no high word).
func holds(c Arg, x uint64, wide bool) bool {
	if !wide {
		x &= 0xffffffff
	}
	switch c.Op {
	case OpNotEqual:
		return x != c.Value
	case OpLessThan:
		return x < c.Value
	case OpLessEqual:
		return x <= c.Value
	case OpEqualTo:
		return x == c.Value
	case OpGreaterEqual:
		return x >= c.Value
	case OpGreaterThan:
		return x > c.Value
	}
	return x&c.Value == c.ValueTwo
}

// TestGuardConditions checks the guard's 64-bit comparisons against Go
// for every operator, on 64- and 32-bit ABIs of both byte orders, with
// values that differ in the high word, the low word, or not at all.
func TestGuardConditions(t *testing.T) {
	arches := []*archInfo{mustArchName(t, "amd64"), mustArchName(t, "x86"), mustArchName(t, "s390x"), mustArchName(t, "mips")}
	r := rand.New(rand.NewPCG(1, 2))
	edge := []uint64{0, 1, 0xffffffff, 1 << 32, 1<<32 | 1, 0xffffffff00000000, ^uint64(0), 0x5412, 0x100005412}
	pick := func() uint64 {
		if r.IntN(2) == 0 {
			return edge[r.IntN(len(edge))]
		}
		return r.Uint64() >> r.IntN(64)
	}
	for _, arch := range arches {
		for _, op := range operators {
			for range 300 {
				c := Arg{Index: uint(r.IntN(6)), Op: op, Value: pick(), ValueTwo: pick()}
				prog := guardOf(t, arch, c)
				for range 20 {
					x := pick()
					if r.IntN(3) == 0 {
						x = c.Value ^ uint64(r.IntN(2))<<32 // near the boundary
					}
					var in call
					in.arch, in.nr = arch, 7
					in.args[c.Index] = x
					got, err := run(prog, in)
					if err != nil {
						t.Fatal(err)
					}
					if want := holds(c, x, arch.wide); (got == retErrno|errEPERM) != want {
						t.Fatalf("%s: arg%d=%#x %s %#x/%#x: matched=%v, want %v", arch.name, c.Index, x, op, c.Value, c.ValueTwo, !want, want)
					}
				}
			}
		}
	}
}

// guardOf builds a guard with one rule, "syscall 7: EPERM if c", in
// front of a program that allows everything.
func guardOf(t *testing.T, arch *archInfo, c Arg) []insn {
	t.Helper()
	pl := &plan{arches: []*archInfo{arch}, syscalls: []*syscallPlan{{
		name:  "probe",
		guard: []condRule{{act: retErrno | errEPERM, args: []Arg{c}}},
	}}}
	prog, err := buildGuard(pl, func(string, *archInfo) (uint32, bool) { return 7, true })
	if err != nil {
		t.Fatal(err)
	}
	return append(prog, insn{code: opRetK, k: uint32(retAllow)})
}

// TestGuardDispatch checks that the guard answers only for its ABIs and
// syscall numbers and lets everything else through to the next program.
func TestGuardDispatch(t *testing.T) {
	amd64, x32, x86 := mustArchName(t, "amd64"), mustArchName(t, "x32"), mustArchName(t, "x86")
	pl := &plan{arches: []*archInfo{amd64, x32}, syscalls: []*syscallPlan{
		{name: "a", guard: []condRule{{act: retErrno | 1}}},                                                   // always
		{name: "b", guard: []condRule{{act: retErrno | 2, args: []Arg{{Index: 0, Op: OpEqualTo, Value: 5}}}}}, // when arg0 == 5
	}}
	nrs := map[string]uint32{"a": 10, "b": 11}
	prog, err := buildGuard(pl, func(name string, a *archInfo) (uint32, bool) {
		if a == x32 {
			return 0x40000000 | nrs[name], true
		}
		return nrs[name], true
	})
	if err != nil {
		t.Fatal(err)
	}
	prog = append(prog, insn{code: opRetK, k: uint32(retAllow)})
	for _, c := range []struct {
		arch *archInfo
		nr   uint32
		arg  uint64
		want ret
	}{
		{amd64, 10, 0, retErrno | 1},
		{amd64, 11, 5, retErrno | 2},
		{amd64, 11, 6, retAllow},
		{amd64, 12, 5, retAllow},
		{x32, 0x40000000 | 10, 0, retErrno | 1},
		{x32, 0x40000000 | 11, 5, retErrno | 2},
		{x86, 10, 5, retAllow}, // not a guarded ABI
	} {
		in := call{nr: c.nr, arch: c.arch}
		in.args[0] = c.arg
		if got, err := run(prog, in); err != nil || got != c.want {
			t.Errorf("%s nr %#x arg %d: %s (%v), want %s", c.arch.name, c.nr, c.arg, describeRet(got), err, describeRet(c.want))
		}
	}
}

func mustArchName(t *testing.T, name string) *archInfo {
	t.Helper()
	a, err := archByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
