package seccomp

import (
	"encoding/binary"
	"fmt"
)

// This file holds a classic-BPF interpreter for the instructions seccomp
// filters use, so tests can run a compiled program against any
// architecture and argument without loading it.

// call is one syscall as a filter sees it (struct seccomp_data).
type call struct {
	nr   uint32
	arch *archInfo
	args [6]uint64
}

// bytes lays the data out as the kernel of that architecture would.
func (c call) bytes() []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if c.arch.bigEndian {
		order = binary.BigEndian
	}
	b := make([]byte, 64)
	order.PutUint32(b[0:], c.nr)
	order.PutUint32(b[4:], c.arch.token)
	for i, a := range c.args {
		order.PutUint64(b[16+8*i:], a)
	}
	return b
}

// run interprets prog for c and returns the action.
func run(prog []insn, c call) (ret, error) {
	r, _, err := interpret(prog, c, false)
	return r, err
}

// constAllow reports what the kernel's filter cache concludes for a
// syscall number (kernel/seccomp.c, seccomp_is_const_allow): true when
// the program allows it without looking at anything but the number and
// the architecture, so the kernel skips the filter for it from then on.
func constAllow(prog []insn, c call) bool {
	r, constant, err := interpret(prog, c, true)
	return err == nil && constant && r == retAllow
}

// interpret runs prog; with emulate it stops, not constant, where the
// kernel's cache emulator would.
func interpret(prog []insn, c call, emulate bool) (ret, bool, error) {
	var order binary.ByteOrder = binary.LittleEndian
	if c.arch.bigEndian {
		order = binary.BigEndian
	}
	data := c.bytes()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.code {
		case opLdAbs:
			if in.k%4 != 0 || in.k+4 > uint32(len(data)) {
				return 0, false, fmt.Errorf("pc %d: load at offset %d", pc, in.k)
			}
			if emulate && in.k != offNr && in.k != offArch {
				return 0, false, nil
			}
			acc = order.Uint32(data[in.k:])
		case opLdImm:
			if emulate {
				return 0, false, nil
			}
			acc = in.k
		case opAndK:
			acc &= in.k
		case opJa:
			pc += int(in.k)
		case opJeq, opJgt, opJge, opJset:
			if jumpTaken(in.code, acc, in.k) {
				pc += int(in.jt)
			} else {
				pc += int(in.jf)
			}
		case opRetK:
			return ret(in.k), true, nil
		default:
			return 0, false, fmt.Errorf("pc %d: opcode %#x not interpreted", pc, in.code)
		}
	}
	return 0, false, fmt.Errorf("program ran off its end")
}

func jumpTaken(code uint16, a, k uint32) bool {
	switch code {
	case opJeq:
		return a == k
	case opJgt:
		return a > k
	case opJge:
		return a >= k
	}
	return a&k != 0
}

// equivalentBytes reports the first call on which two programs for the
// same architecture decide differently. It tries every syscall number
// of the ABI (and of x32 on amd64) with argument values around those the
// built-in profiles check.
func equivalentBytes(a, b []byte, arch *archInfo) error {
	pa, err := decode(a, arch.order())
	if err != nil {
		return err
	}
	pb, err := decode(b, arch.order())
	if err != nil {
		return err
	}
	for _, nr := range probeNumbers() {
		c := call{nr: nr, arch: arch}
		ra, constA, errA := interpret(pa, c, true)
		rb, constB, errB := interpret(pb, c, true)
		if errA == nil && errB == nil && constA && constB {
			if ra != rb {
				return fmt.Errorf("nr %#x: %s vs %s", nr, describeRet(ra), describeRet(rb))
			}
			continue // neither looks at the arguments
		}
		for _, args := range probeArgs() {
			c := call{nr: nr, arch: arch, args: args}
			ra, errA := run(pa, c)
			rb, errB := run(pb, c)
			if errA != nil || errB != nil || ra != rb {
				return fmt.Errorf("nr %#x args %#x: %s (%v) vs %s (%v)", nr, args[:2], describeRet(ra), errA, describeRet(rb), errB)
			}
		}
	}
	return nil
}

func probeNumbers() []uint32 {
	var nrs []uint32
	for nr := uint32(0); nr < 1100; nr++ {
		nrs = append(nrs, nr, 0x40000000|nr)
	}
	for nr := uint32(4000); nr < 6500; nr++ { // MIPS o32, n64, n32
		nrs = append(nrs, nr)
	}
	return append(nrs, 0xffffffff)
}

func probeArgs() [][6]uint64 {
	values := []uint64{0, 1, 3, 8, 10, 17, 0x80, 0x5412, 0x541c, 0x5472, 0x5483, 0x20000, 0x20008, 0x40000,
		0x80003, 0x2000000, 0x10000000, 0x40000000, 0x7e020000, 0xffffffff, 1<<32 | 0x5412, 1 << 32, ^uint64(0)}
	var out [][6]uint64
	for _, v := range values {
		out = append(out, [6]uint64{v}, [6]uint64{0, v}, [6]uint64{2, v}, [6]uint64{10, v}, [6]uint64{17, v})
	}
	return out
}
