package seccomp

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// ret is a SECCOMP_RET_* value: an action plus its 16 bits of data.
type ret uint32

// Kernel action values (include/uapi/linux/seccomp.h).
const (
	retKillProcess ret = 0x80000000
	retKillThread  ret = 0x00000000
	retTrap        ret = 0x00030000
	retErrno       ret = 0x00050000
	retTrace       ret = 0x7ff00000
	retLog         ret = 0x7ffc0000
	retAllow       ret = 0x7fff0000
)

const errEPERM = 1

// retOf turns a validated action into its kernel value. Without an
// explicit errnoRet, ERRNO and TRACE use EPERM, as runc does.
func retOf(a Action, errnoRet *uint) ret {
	data := uint32(errEPERM)
	if errnoRet != nil {
		data = uint32(*errnoRet)
	}
	switch a {
	case ActKillProcess:
		return retKillProcess
	case ActKill, ActKillThread:
		return retKillThread
	case ActTrap:
		return retTrap
	case ActErrno:
		return retErrno | ret(data)
	case ActTrace:
		return retTrace | ret(data)
	case ActLog:
		return retLog
	}
	return retAllow
}

// host is what rule selection depends on.
type host struct {
	arch   *archInfo
	kernel kernelVersion // zero when unknown: minKernel rules then drop out
}

// condRule is a rule with argument checks. Conditions are ANDed.
type condRule struct {
	act  ret
	args []Arg
	// argsFor, when set, computes args per architecture (the TTY rules
	// Compile adds, whose ioctl numbers differ on MIPS and SH).
	argsFor func(*archInfo) []Arg
	origin  string // "syscalls[3]", or "omega-run" for added rules
	note    string // what Describe says of an added rule
	stops   string // what an added rule stops, for Summarize: "set-id bits"
}

func (r *condRule) argsOn(a *archInfo) []Arg {
	if r.argsFor != nil {
		return r.argsFor(a)
	}
	return r.args
}

// syscallPlan is the effective policy for one syscall name: the first
// guard rule whose conditions hold decides; then libseccomp's rules
// (native, all one action); then the unconditional action; then the
// profile's default.
type syscallPlan struct {
	name   string
	guard  []condRule // checked first, by omega-run's own BPF (guard.go)
	native []condRule // handed to libseccomp
	uncond *ret       // nil: the default action
}

// plan is a profile reduced to what the filter must do on this host.
type plan struct {
	source   string
	def      ret
	arches   []*archInfo // native first
	syscalls []*syscallPlan
	flags    uint
}

// newPlan selects the rules that apply on h and decides, syscall by
// syscall, what libseccomp can express and what needs the guard.
func newPlan(p *Profile, h host) (*plan, error) {
	if h.arch == nil {
		return nil, fmt.Errorf("seccomp does not support this architecture")
	}
	// Profiles built in Go rather than by Parse have not been checked.
	if err := p.Validate(); err != nil {
		return nil, err
	}
	pl := &plan{source: p.Source, def: retOf(p.DefaultAction, p.DefaultErrnoRet)}
	if p.DefaultAction == ActErrno && p.DefaultErrnoRet == nil {
		pl.def = retErrno | errEPERM
	}
	pl.arches = filterArches(p, h.arch)
	for _, f := range p.Flags {
		pl.flags |= filterFlags[f]
	}
	byName := map[string]*syscallPlan{}
	for i := range p.Syscalls {
		s := &p.Syscalls[i]
		if !h.selects(s) {
			continue
		}
		if err := pl.add(byName, s, fmt.Sprintf("syscalls[%d]", i)); err != nil {
			return nil, err
		}
	}
	for _, sp := range byName {
		pl.split(sp)
	}
	pl.addTTYRules(byName)
	pl.addSetIDRules(byName)
	for _, sp := range byName {
		pl.syscalls = append(pl.syscalls, sp)
	}
	sort.Slice(pl.syscalls, func(i, j int) bool { return pl.syscalls[i].name < pl.syscalls[j].name })
	return pl, nil
}

// filterArches lists the ABIs the filter covers: the native one plus
// those the profile names. Docker's archMap counts only for the entry of
// the native architecture. Any ABI not listed gets the bad-arch action.
func filterArches(p *Profile, native *archInfo) []*archInfo {
	arches := []*archInfo{native}
	addArch := func(name string) {
		a, _ := archByScmp(name) // validated by Profile.Validate
		if a != nil && !slices.Contains(arches, a) {
			arches = append(arches, a)
		}
	}
	for _, name := range p.Architectures {
		addArch(name)
	}
	for _, m := range p.ArchMap {
		if m.Arch != native.scmp {
			continue
		}
		for _, name := range m.SubArches {
			addArch(name)
		}
	}
	return arches
}

// selects reports whether a rule applies. The confined program holds no
// capabilities, so rules that includes.caps requires never apply and
// excludes.caps never removes a rule.
func (h host) selects(s *Syscall) bool {
	if in := s.Includes; in != nil {
		if len(in.Caps) > 0 || (len(in.Arches) > 0 && !h.archIn(in.Arches)) {
			return false
		}
		if in.MinKernel != "" && h.kernelBelow(in.MinKernel) {
			return false
		}
	}
	if ex := s.Excludes; ex != nil {
		if len(ex.Arches) > 0 && h.archIn(ex.Arches) {
			return false
		}
		if ex.MinKernel != "" && !h.kernelBelow(ex.MinKernel) {
			return false
		}
	}
	return true
}

func (h host) archIn(names []string) bool {
	for _, n := range names {
		if a, err := archByName(n); err == nil && a == h.arch {
			return true
		}
	}
	return false
}

func (h host) kernelBelow(min string) bool {
	v, err := parseKernel(min)
	return err != nil || h.kernel.less(v)
}

// add records rule s under each of its names.
func (pl *plan) add(byName map[string]*syscallPlan, s *Syscall, origin string) error {
	act := retOf(s.Action, s.ErrnoRet)
	for _, name := range s.names() {
		sp := byName[name]
		if sp == nil {
			sp = &syscallPlan{name: name}
			byName[name] = sp
		}
		if len(s.Args) > 0 {
			sp.guard = append(sp.guard, condRule{act: act, args: s.Args, origin: origin})
			continue
		}
		if sp.uncond != nil && *sp.uncond != act {
			return fmt.Errorf("%s: %s has two unconditional actions, %s and %s",
				origin, name, describeRet(*sp.uncond), describeRet(act))
		}
		sp.uncond = &act
	}
	return nil
}

// split moves conditional rules to libseccomp when it can express them
// exactly; the rest stay in the guard. libseccomp silently drops the
// conditional rules of a syscall that also has an unconditional one,
// refuses two checks of one argument in a rule, orders rules of
// different actions as it likes, and misreads some (below), so those
// cases go to the guard, where the first listed rule that matches
// decides.
func (pl *plan) split(sp *syscallPlan) {
	fallback := pl.def
	if sp.uncond != nil {
		fallback = *sp.uncond
	}
	if sp.uncond != nil && *sp.uncond == pl.def {
		sp.uncond = nil // same as no rule: libseccomp rejects it
	}
	sp.guard = eitherCheck(sp.guard, fallback)
	// Trailing rules that decide what the fallback decides anyway are no-ops.
	for len(sp.guard) > 0 && sp.guard[len(sp.guard)-1].act == fallback {
		sp.guard = sp.guard[:len(sp.guard)-1]
	}
	if len(sp.guard) == 0 || sp.uncond != nil || pl.narrowInLibseccomp(sp.guard) {
		return
	}
	for _, r := range sp.guard {
		if r.act != sp.guard[0].act || repeatsArg(r.args) {
			return
		}
	}
	// libseccomp merges the rules of a syscall into one tree, and only
	// equality survives that: with "arg0 < 1<<32 | 5" and "arg0 < 0",
	// arg0 = 7 matched neither, and "arg0 != 1 && arg1 < 5" with "arg0
	// != 1 && arg1 != 5" never came back from seccomp_rule_add.
	if len(sp.guard) > 1 && slices.ContainsFunc(sp.guard, notEquality) {
		return
	}
	sp.native, sp.guard = sp.guard, nil
}

// notEquality tells whether a rule compares other than == or masked ==.
func notEquality(r condRule) bool {
	return slices.ContainsFunc(r.args, func(a Arg) bool { return a.Op != OpEqualTo && a.Op != OpMaskedEqual })
}

// narrowInLibseccomp tells whether libseccomp would read rules on one
// of the plan's ABIs otherwise than the guard, which compares arguments
// as the kernel passes them (archTable): on x32 libseccomp compares only
// the low word of an argument, which the kernel passes whole, so
// "arg1 < 4096" would pass 1<<32 | 5; on 32-bit ABIs it cuts values to
// their low word, so "arg0 != 1<<32 | 1" would pass 1. Such rules stay
// in the guard.
func (pl *plan) narrowInLibseccomp(rules []condRule) bool {
	wide := func(r condRule) bool {
		return slices.ContainsFunc(r.args, func(a Arg) bool { return a.Value > math.MaxUint32 || a.ValueTwo > math.MaxUint32 })
	}
	for _, a := range pl.arches {
		if a.scmp == "SCMP_ARCH_X32" || !a.wide && slices.ContainsFunc(rules, wide) {
			return true
		}
	}
	return false
}

// eitherCheck reads a rule that checks one argument twice as the
// stricter of runc, which adds one rule per check (either holds), and
// the rule as written (both hold): one whose action the kernel ranks
// above fallback's (deny where the default allows) applies when either
// check holds, one that ranks below (allow where the default denies,
// "0 < sig < 16") only when all do. A later rule the kernel ranks above
// such a rule still decides where its checks hold (as written): a copy of
// it, bound to one of the checks, goes ahead of the single checks.
func eitherCheck(rules []condRule, fallback ret) []condRule {
	var out []condRule
	for i, r := range rules {
		if !repeatsArg(r.args) || !stricter(r.act, fallback) {
			out = append(out, r)
			continue
		}
		var ahead []condRule
		for _, later := range rules[i+1:] {
			if !stricter(later.act, r.act) {
				continue
			}
			for _, a := range r.args {
				l := later
				l.args = append(slices.Clip(later.args), a)
				ahead = append(ahead, l)
			}
		}
		if len(ahead) > 0 {
			out = append(append(out, r), ahead...) // r first: where all hold, as written
		}
		for _, a := range r.args {
			one := r
			one.args = []Arg{a}
			out = append(out, one)
		}
	}
	return out
}

// stricter tells whether the kernel ranks action a above b, as it does
// when filters disagree: the lower signed action value wins.
func stricter(a, b ret) bool {
	return int32(a&0xffff0000) < int32(b&0xffff0000)
}

func repeatsArg(args []Arg) bool {
	var seen [6]bool
	for _, a := range args {
		if seen[a.Index] {
			return true
		}
		seen[a.Index] = true
	}
	return false
}

// addTTYRules puts the TIOCSTI, TIOCLINUX, TIOCSETD, KDSKBMODE and
// KDSETMODE denial in front of every other ioctl rule of every profile:
// with either of the first two a confined program could type commands
// into the terminal of the caller, and TIOCSETD (n_null) leaves it dead
// until reset, as the last two leave a Linux console that is the
// program's controlling terminal (keyboard K_OFF, display KD_GRAPHICS:
// TestConsoleModeRefused). Only the low 32 bits are compared, as the
// kernel reads the request as an unsigned int, so high bits cannot slip
// past (CVE-2019-10063).
func (pl *plan) addTTYRules(byName map[string]*syscallPlan) {
	sp := byName["ioctl"]
	if sp == nil {
		sp = &syscallPlan{name: "ioctl"}
		byName["ioctl"] = sp
	}
	rule := func(name string, pick func(*archInfo) uint32) condRule {
		return condRule{act: retErrno | errEPERM, origin: "omega-run", note: name + ", added to every profile", stops: ttyStops,
			argsFor: func(a *archInfo) []Arg {
				return []Arg{{Index: 1, Op: OpMaskedEqual, Value: 0xffffffff, ValueTwo: uint64(pick(a))}}
			}}
	}
	sti := rule("TIOCSTI", func(a *archInfo) uint32 { v, _ := a.ttyIoctls(); return v })
	linux := rule("TIOCLINUX", func(a *archInfo) uint32 { _, v := a.ttyIoctls(); return v })
	setd := rule("TIOCSETD", func(a *archInfo) uint32 { return a.ttySetd() })
	// linux/kd.h numbers them alike on every architecture.
	kbmode := rule("KDSKBMODE", func(*archInfo) uint32 { return 0x4b45 })
	kdmode := rule("KDSETMODE", func(*archInfo) uint32 { return 0x4b3a })
	sp.guard = append([]condRule{sti, linux, setd, kbmode, kdmode}, sp.guard...)
}

// ttyStops names the terminal ioctls addTTYRules refuses (explain's
// summary).
const ttyStops = "TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE"

// badArchRet is what a syscall of an ABI the filter does not cover gets:
// denied like any other call, never a killed process.
const badArchRet = retErrno | errEPERM
