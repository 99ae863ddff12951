//go:build linux && cgo

package seccomp

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	libseccomp "github.com/seccomp/libseccomp-golang"
)

// Enabled reports whether libseccomp is compiled in.
const Enabled = true

// Version returns the version of the libseccomp in use, e.g. "2.5.4".
func Version() string {
	major, minor, micro := libseccomp.GetLibraryVersion()
	return fmt.Sprintf("%d.%d.%d", major, minor, micro)
}

// Compile turns p into a filter for this host: libseccomp's program for
// the native ABI and every ABI the profile names, behind omega-run's
// guard (guard.go). A nil profile ("none") compiles to a nil Program.
// Warnings name what could not be enforced, such as syscalls this
// libseccomp does not know.
//
// The built-in profiles, as Resolve returns them, are compiled at build
// time (builtin_linux.go), so they cost no libseccomp work here.
func Compile(p *Profile) (*Program, []string, error) {
	if p == nil {
		return nil, nil, nil
	}
	if prog, ok := builtinProgram(p); ok {
		return prog, nil, nil
	}
	return compileFor(p, currentHost())
}

// compileFor compiles p for host h, which need not be this machine.
func compileFor(p *Profile, h host) (*Program, []string, error) {
	pl, err := newPlan(p, h)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p.Source, err)
	}
	c := compiler{plan: pl}
	prog, err := c.compile()
	if err != nil {
		return nil, c.warnings, fmt.Errorf("%s: %w", p.Source, err)
	}
	return prog, c.warnings, nil
}

type compiler struct {
	plan     *plan
	warnings []string
	nrs      map[string]libseccomp.ScmpSyscall // native numbers of known names
}

func (c *compiler) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

func (c *compiler) compile() (*Program, error) {
	c.resolveNames()
	tail, err := c.filterProgram()
	if err != nil {
		return nil, err
	}
	head, err := buildGuard(c.plan, c.resolve)
	if err != nil {
		return nil, err
	}
	prog := append(head, tail...)
	if len(prog) > maxInsns {
		return nil, fmt.Errorf("filter has %d instructions, the kernel takes at most %d", len(prog), maxInsns)
	}
	return &Program{BPF: encode(prog, c.plan.arches[0].order()), Flags: c.plan.flags}, nil
}

// resolveNames looks every syscall name up once. Like runc, a name
// libseccomp does not know on any architecture is skipped with a warning
// rather than an error: it is most likely newer than this libseccomp.
func (c *compiler) resolveNames() {
	c.nrs = make(map[string]libseccomp.ScmpSyscall, len(c.plan.syscalls))
	var unknown []string
	for _, sp := range c.plan.syscalls {
		nr, err := libseccomp.GetSyscallFromName(sp.name)
		if err != nil {
			unknown = append(unknown, sp.name)
			continue
		}
		c.nrs[sp.name] = nr
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		what := fmt.Sprintf("%d syscalls unknown to libseccomp %s have", len(unknown), Version())
		if len(unknown) == 1 {
			what = "1 syscall unknown to libseccomp " + Version() + " has"
		}
		c.warnf("%s no rules and get the default action (%s): %s", what, describeRet(c.plan.def), strings.Join(unknown, ", "))
	}
}

// unknownSyscalls returns the names libseccomp does not know.
func unknownSyscalls(names []string) []string {
	var unknown []string
	for _, name := range names {
		if _, err := libseccomp.GetSyscallFromName(name); err != nil {
			unknown = append(unknown, name)
		}
	}
	return unknown
}

// resolve is the guard's nrResolver.
func (c *compiler) resolve(name string, a *archInfo) (uint32, bool) {
	if _, ok := c.nrs[name]; !ok {
		return 0, false
	}
	sa, err := libseccomp.GetArchFromString(a.name)
	if err != nil {
		return 0, false
	}
	nr, err := libseccomp.GetSyscallFromNameByArch(name, sa)
	if err != nil || nr < 0 {
		return 0, false // not a syscall of this ABI
	}
	return uint32(nr), true
}

// filterProgram has libseccomp build one program per ABI, concurrently,
// and chains them (see chain). libseccomp's cost grows much faster than
// linearly with the rules in one filter: Docker's profile for x86_64,
// x86 and x32 takes 25 ms as one filter and under 10 ms as three.
// An ABI this libseccomp lacks is dropped from the plan too, so that the
// guard never answers for an ABI the filter denies.
func (c *compiler) filterProgram() ([]insn, error) {
	sentinel := c.plan.unusedErrno()
	progs := make([][]insn, len(c.plan.arches))
	errs := make([]error, len(c.plan.arches))
	if len(c.plan.arches) > 1 {
		// libseccomp probes the kernel lazily into globals; have it do
		// so now, before filters are built concurrently.
		if _, err := libseccomp.GetAPI(); err != nil {
			return nil, fmt.Errorf("libseccomp: %w", err)
		}
	}
	var wg sync.WaitGroup
	for i, a := range c.plan.arches {
		if i == 0 {
			continue // below, without a goroutine: most filters have one ABI
		}
		wg.Go(func() { progs[i], errs[i] = c.archProgram(a, sentinel) })
	}
	progs[0], errs[0] = c.archProgram(c.plan.arches[0], sentinel)
	wg.Wait()
	var kept []*archInfo
	var chained [][]insn
	native := c.plan.arches[0]
	for i, a := range c.plan.arches {
		switch {
		case errors.Is(errs[i], errArchUnsupported):
			c.warnf("architecture %s left out (%v): its syscalls fail with EPERM", a.scmp, errs[i])
		case errs[i] == nil && a.bigEndian != native.bigEndian:
			// No kernel runs ABIs of both byte orders.
			c.warnf("architecture %s left out: its byte order differs from %s", a.scmp, native.scmp)
		case errs[i] != nil:
			return nil, fmt.Errorf("%s: %w", a.name, errs[i])
		default:
			kept = append(kept, a)
			chained = append(chained, progs[i])
		}
	}
	if len(kept) == 0 || kept[0] != native {
		return nil, fmt.Errorf("%s: %w (%s)", native.scmp, errArchUnsupported, Version())
	}
	c.plan.arches = kept
	return chain(chained, sentinel), nil
}

// chain concatenates single-ABI programs. Each one returns sentinel for
// calls of other ABIs; that return becomes a jump to the next program,
// and in the last program the real bad-arch action. libseccomp's
// multi-ABI programs have the same shape: one block per ABI, in turn.
func chain(progs [][]insn, sentinel ret) []insn {
	var all []insn
	for i, p := range progs {
		last := i == len(progs)-1
		for pc, in := range p {
			if in.code == opRetK && ret(in.k) == sentinel {
				if last {
					in.k = uint32(badArchRet)
				} else {
					in = insn{code: opJa, k: uint32(len(p) - pc - 1)}
				}
			}
			all = append(all, in)
		}
	}
	return all
}

// unusedErrno picks an action no rule of the plan returns, to mark the
// bad-arch exits of the single-ABI programs.
func (pl *plan) unusedErrno() ret {
	used := map[ret]bool{pl.def: true, badArchRet: true}
	for _, sp := range pl.syscalls {
		if sp.uncond != nil {
			used[*sp.uncond] = true
		}
		for _, r := range sp.native {
			used[r.act] = true
		}
	}
	for e := ret(maxErrno); ; e-- {
		if !used[retErrno|e] {
			return retErrno | e
		}
	}
}
