package seccomp

import (
	"encoding/binary"
	"fmt"
)

// insn is one classic BPF instruction, a struct sock_filter.
type insn struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// The classic BPF opcodes seccomp filters use.
const (
	opLdAbs  = 0x20 // BPF_LD | BPF_W | BPF_ABS: A = seccomp_data[k]
	opLdImm  = 0x00 // BPF_LD | BPF_W | BPF_IMM: A = k
	opAndK   = 0x54 // BPF_ALU | BPF_AND | BPF_K
	opJa     = 0x05 // BPF_JMP | BPF_JA
	opJeq    = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	opJgt    = 0x25 // BPF_JMP | BPF_JGT | BPF_K
	opJge    = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	opJset   = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	opRetK   = 0x06 // BPF_RET | BPF_K
	insnSize = 8

	// maxInsns is BPF_MAXINSNS, the kernel's limit for one filter.
	maxInsns = 4096

	offNr   = 0 // offsetof(struct seccomp_data, nr)
	offArch = 4 // offsetof(struct seccomp_data, arch)
)

// encode lays instructions out as the kernel reads them: in the byte
// order of its architecture.
func encode(prog []insn, order binary.AppendByteOrder) []byte {
	b := make([]byte, 0, len(prog)*insnSize)
	for _, in := range prog {
		b = order.AppendUint16(b, in.code)
		b = append(b, in.jt, in.jf)
		b = order.AppendUint32(b, in.k)
	}
	return b
}

func decode(b []byte, order binary.ByteOrder) ([]insn, error) {
	if len(b) == 0 || len(b)%insnSize != 0 {
		return nil, fmt.Errorf("BPF program of %d bytes is not a whole number of instructions", len(b))
	}
	prog := make([]insn, len(b)/insnSize)
	for i := range prog {
		c := b[i*insnSize:]
		prog[i] = insn{order.Uint16(c), c[2], c[3], order.Uint32(c[4:])}
	}
	return prog, nil
}

// label is a jump target in an assembler; fallThrough is the next
// instruction.
type label int

const fallThrough label = -1

// assembler builds a program with symbolic forward jumps.
type assembler struct {
	prog  []insn
	jumps []jump
	pos   []int // label → instruction index, -1 while unbound
}

type jump struct {
	at     int
	jt, jf label // for opJa, jt is the target
}

func (a *assembler) newLabel() label {
	a.pos = append(a.pos, -1)
	return label(len(a.pos) - 1)
}

func (a *assembler) bind(l label) { a.pos[l] = len(a.prog) }

func (a *assembler) emit(code uint16, k uint32) { a.prog = append(a.prog, insn{code: code, k: k}) }

func (a *assembler) ld(off uint32)  { a.emit(opLdAbs, off) }
func (a *assembler) ldImm(k uint32) { a.emit(opLdImm, k) }
func (a *assembler) and(k uint32)   { a.emit(opAndK, k) }
func (a *assembler) ret(k ret)      { a.emit(opRetK, uint32(k)) }

// ja jumps to l unconditionally; its 32-bit offset reaches anywhere.
func (a *assembler) ja(l label) {
	a.jumps = append(a.jumps, jump{at: len(a.prog), jt: l})
	a.emit(opJa, 0)
}

// jmp compares A with k and goes to jt when true, jf when false. Its
// offsets are 8-bit: targets must be near (checked by link).
func (a *assembler) jmp(op uint16, k uint32, jt, jf label) {
	a.jumps = append(a.jumps, jump{at: len(a.prog), jt: jt, jf: jf})
	a.emit(op, k)
}

// unless goes on with the next instruction when A op k holds, and jumps
// to far otherwise, however far that is.
func (a *assembler) unless(op uint16, k uint32, far label) {
	a.prog = append(a.prog, insn{code: op, jt: 1, k: k}) // true: skip the ja
	a.ja(far)
}

// link resolves the jumps and returns the program.
func (a *assembler) link() ([]insn, error) {
	for _, j := range a.jumps {
		in := &a.prog[j.at]
		if in.code == opJa {
			off, err := a.offset(j.at, j.jt)
			if err != nil {
				return nil, err
			}
			in.k = uint32(off)
			continue
		}
		for _, t := range []struct {
			l   label
			dst *uint8
		}{{j.jt, &in.jt}, {j.jf, &in.jf}} {
			off, err := a.offset(j.at, t.l)
			if err != nil {
				return nil, err
			}
			if off > 255 {
				return nil, fmt.Errorf("bug: conditional jump of %d instructions", off)
			}
			*t.dst = uint8(off)
		}
	}
	return a.prog, nil
}

func (a *assembler) offset(at int, l label) (int, error) {
	if l == fallThrough {
		return 0, nil
	}
	p := a.pos[l]
	if p <= at {
		return 0, fmt.Errorf("bug: label %d unbound or behind instruction %d", l, at)
	}
	return p - at - 1, nil
}
