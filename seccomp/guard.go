package seccomp

import "fmt"

// The guard is a short BPF prologue that omega-run writes itself and
// puts in front of libseccomp's program. It holds the rules libseccomp
// cannot express (see plan.split) and the TTY rules added to every
// profile. For each architecture in the filter and each guarded syscall
// it checks the rules in order and returns the action of the first that
// matches; anything else falls through to libseccomp's program, which
// starts by loading the architecture again and so needs nothing from us.
//
// Syscalls the guard does not mention only pass an arch and an nr
// comparison, which the kernel's filter cache evaluates once per syscall
// number: constant-allow syscalls stay free of any filter cost.

// nrResolver returns the number of a syscall on an architecture, and
// false when that architecture has no such syscall.
type nrResolver func(name string, a *archInfo) (uint32, bool)

// buildGuard assembles the guard of pl.
func buildGuard(pl *plan, resolve nrResolver) ([]insn, error) {
	var a assembler
	end := a.newLabel()
	a.ld(offArch)
	for _, group := range tokenGroups(pl.arches) {
		skip := a.newLabel()
		a.unless(opJeq, group[0].token, skip)
		a.ld(offNr)
		for _, arch := range group {
			if err := guardArch(&a, pl, arch, resolve, end); err != nil {
				return nil, err
			}
		}
		a.ja(end)
		a.bind(skip)
	}
	a.bind(end)
	return a.link()
}

// tokenGroups groups architectures by AUDIT_ARCH token: x86_64 and x32
// share one and differ only in the syscall numbers.
func tokenGroups(arches []*archInfo) [][]*archInfo {
	var groups [][]*archInfo
	index := map[uint32]int{}
	for _, a := range arches {
		if i, ok := index[a.token]; ok {
			groups[i] = append(groups[i], a)
			continue
		}
		index[a.token] = len(groups)
		groups = append(groups, []*archInfo{a})
	}
	return groups
}

// guardArch emits the checks of every guarded syscall of one ABI. A holds
// the syscall number on entry and on every fall-through.
func guardArch(a *assembler, pl *plan, arch *archInfo, resolve nrResolver, end label) error {
	for _, sp := range pl.syscalls {
		if len(sp.guard) == 0 {
			continue
		}
		nr, ok := resolve(sp.name, arch)
		if !ok {
			continue
		}
		skip := a.newLabel()
		a.unless(opJeq, nr, skip)
		for _, r := range sp.guard {
			next := a.newLabel()
			for _, c := range r.argsOn(arch) {
				if err := guardCond(a, arch, c, next); err != nil {
					return fmt.Errorf("%s (%s): %w", sp.name, r.origin, err)
				}
			}
			a.ret(r.act)
			a.bind(next)
		}
		a.ja(end)    // no rule matched: libseccomp's program decides
		a.bind(skip) // A still holds the syscall number here
	}
	return nil
}

// guardCond emits one 64-bit comparison of an argument; it goes on with
// the next instruction when the comparison holds and jumps to fail
// otherwise. On 32-bit ABIs the high word is zero, as in libseccomp.
func guardCond(a *assembler, arch *archInfo, c Arg, fail label) error {
	lo, hi := arch.argOffsets(int(c.Index))
	loadHi := func() {
		if arch.wide {
			a.ld(hi)
		} else {
			a.ldImm(0)
		}
	}
	vh, vl := uint32(c.Value>>32), uint32(c.Value)
	pass := a.newLabel()
	switch c.Op {
	case OpMaskedEqual:
		return maskedEqual(a, arch, c, lo, hi, fail)
	case OpEqualTo:
		loadHi()
		a.jmp(opJeq, vh, fallThrough, fail)
		a.ld(lo)
		a.jmp(opJeq, vl, fallThrough, fail)
	case OpNotEqual:
		loadHi()
		a.jmp(opJeq, vh, fallThrough, pass)
		a.ld(lo)
		a.jmp(opJeq, vl, fail, fallThrough)
	case OpGreaterThan, OpGreaterEqual:
		loadHi()
		a.jmp(opJgt, vh, pass, fallThrough)
		a.jmp(opJeq, vh, fallThrough, fail)
		a.ld(lo)
		a.jmp(map[Operator]uint16{OpGreaterThan: opJgt, OpGreaterEqual: opJge}[c.Op], vl, fallThrough, fail)
	case OpLessThan, OpLessEqual:
		// x < v is !(x >= v); x <= v is !(x > v).
		loadHi()
		a.jmp(opJgt, vh, fail, fallThrough)
		a.jmp(opJeq, vh, fallThrough, pass)
		a.ld(lo)
		a.jmp(map[Operator]uint16{OpLessThan: opJge, OpLessEqual: opJgt}[c.Op], vl, fail, fallThrough)
	default:
		return fmt.Errorf("unknown operator %q", c.Op)
	}
	a.bind(pass)
	return nil
}

// maskedEqual emits (x & Value) == ValueTwo. A zero high mask makes the
// high word irrelevant, which is how a 32-bit comparison is written.
func maskedEqual(a *assembler, arch *archInfo, c Arg, lo, hi uint32, fail label) error {
	mh, ml := uint32(c.Value>>32), uint32(c.Value)
	vh, vl := uint32(c.ValueTwo>>32), uint32(c.ValueTwo)
	switch {
	case mh == 0 || !arch.wide:
		// The masked high word is zero: only a zero value can match.
		if vh != 0 {
			a.ja(fail)
			return nil
		}
	default:
		a.ld(hi)
		a.and(mh)
		a.jmp(opJeq, vh, fallThrough, fail)
	}
	a.ld(lo)
	if ml != 0xffffffff {
		a.and(ml)
	}
	a.jmp(opJeq, vl, fallThrough, fail)
	return nil
}
