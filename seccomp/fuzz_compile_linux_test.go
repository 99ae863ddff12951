//go:build linux && cgo

package seccomp

import (
	"slices"
	"strings"
	"testing"
	"time"

	libseccomp "github.com/seccomp/libseccomp-golang"
)

// FuzzCompile builds a profile from the fuzzer's bytes, compiles it for a
// host of one of several architectures (libseccomp's part and the guard),
// runs the program in the interpreter (vm_test.go) and holds every answer
// against what the profile says, evaluated directly in Go (wantRet).
func FuzzCompile(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 3, 2, 5, 1, 4, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 9})
	f.Add([]byte("\x00\x02\x07\x03\x02\x01\x06\x02\x00\x01\x00\x00\x00\x00\x01\x00\x00\x00\x03\x05\x04\x01\x01\x02\x00\xff\xff\xff\xff\x01\x00\x00\x00"))
	f.Add([]byte{2, 3, 4, 1, 2, 3, 2, 3, 0, 6, 13, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{b: data}
		hd := fuzzHosts[g.pick(len(fuzzHosts))]
		h := host{arch: archForGOARCH(hd.goarch), kernel: kernelVersion{6, 18}}
		p := g.profile(h.arch, hd.compat)
		if p.Validate() != nil {
			return
		}
		prog, err := compileWithin(p, h, 10*time.Second)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "two unconditional actions") && !strings.Contains(msg, "the kernel takes at most") {
				t.Fatalf("compile: %v\nprofile: %s", err, goProfile(p))
			}
			return
		}
		insns, err := decode(prog.BPF, h.arch.order())
		if err != nil {
			t.Fatal(err)
		}
		arches := []*archInfo{h.arch}
		for _, c := range hd.compat {
			a, _ := archByScmp(c)
			arches = append(arches, a)
		}
		for _, a := range arches {
			for _, name := range fuzzSyscalls {
				n, ok := nrOn(name, a)
				if !ok {
					continue
				}
				for _, args := range g.calls() {
					got, err := run(insns, call{nr: n, arch: a, args: args})
					if want := wantRet(p, h, a, name, args); err != nil || got != want {
						t.Fatalf("%s host, %s %s%#x: filter says %s (%v), the profile %s\nprofile: %s %+v %+v",
							h.arch.name, a.name, name, args, describeRet(got), err, describeRet(want), goProfile(p), p.Architectures, p.ArchMap)
					}
				}
			}
		}
	})
}

// compileWithin is compileFor, failing when libseccomp does not come
// back: Go's fuzzing reports no hang of one input.
func compileWithin(p *Profile, h host, limit time.Duration) (*Program, error) {
	type result struct {
		prog *Program
		err  error
	}
	done := make(chan result, 1)
	go func() { prog, _, err := compileFor(p, h); done <- result{prog, err} }()
	select {
	case r := <-done:
		return r.prog, r.err
	case <-time.After(limit):
		panic("compile hung on " + goProfile(p))
	}
}

// fuzzHosts are the hosts FuzzCompile compiles for, with the ABIs of the
// same byte order their kernels also run.
var fuzzHosts = []struct {
	goarch string
	compat []string
}{
	{"amd64", []string{"SCMP_ARCH_X86", "SCMP_ARCH_X32"}},
	{"arm64", []string{"SCMP_ARCH_ARM"}},
	{"s390x", []string{"SCMP_ARCH_S390"}},
	{"mips64", []string{"SCMP_ARCH_MIPS", "SCMP_ARCH_MIPS64N32"}},
	{"riscv64", nil},
}

// nrOn is the number of a syscall on an ABI, if it has it.
func nrOn(name string, a *archInfo) (uint32, bool) {
	sa, err := libseccomp.GetArchFromString(a.name)
	if err != nil {
		return 0, false
	}
	n, err := libseccomp.GetSyscallFromNameByArch(name, sa)
	return uint32(n), err == nil && n >= 0
}

// fuzzSyscalls are the names rules are made of: some that omega-run adds
// rules for, some that profiles check arguments of, and plain ones. None
// is multiplexed (socketcall, ipc) on x86, where libseccomp rewrites rules.
var fuzzSyscalls = []string{"ioctl", "openat", "chmod", "fchmodat", "openat2", "personality", "clone", "kill", "dup3", "getpid", "mount"}

// wantRet is what p decides for a call of syscall name on ABI a, read
// from the profile alone: the ABIs it covers, the rules omega-run adds to
// every profile, then the first rule with checks that hold, then a rule
// without checks, then the default.
func wantRet(p *Profile, h host, a *archInfo, name string, args [6]uint64) ret {
	covered := a == h.arch || slices.Contains(p.Architectures, a.scmp)
	for _, m := range p.ArchMap {
		covered = covered || m.Arch == h.arch.scmp && slices.Contains(m.SubArches, a.scmp)
	}
	if !covered {
		return badArchRet
	}
	if !a.wide {
		for i := range args {
			args[i] &= 0xffffffff
		}
	}
	sti, linux := a.ttyIoctls()
	creat, tmpfile := createFlags(a)
	switch req := uint32(args[1]); {
	case name == "ioctl" && (req == sti || req == linux):
		return retErrno | errEPERM
	case name == "openat2":
		return retErrno | 38
	}
	for _, c := range setIDCalls {
		creates := c.flags < 0 || args[c.flags]&creat == creat || args[c.flags]&tmpfile == tmpfile
		if c.name == name && creates && args[c.mode]&(modeSetUID|modeSetGID) != 0 {
			return retErrno | errEPERM
		}
	}
	var uncond *ret
	for i := range p.Syscalls {
		s := &p.Syscalls[i]
		if !slices.Contains(s.names(), name) || !appliesOn(s, h) {
			continue
		}
		r := retOf(s.Action, s.ErrnoRet)
		if len(s.Args) == 0 {
			uncond = &r
			continue
		}
		all := true
		for _, c := range s.Args {
			all = all && holds(c, args[c.Index], true)
		}
		if all {
			return r
		}
	}
	if uncond != nil {
		return *uncond
	}
	return retOf(p.DefaultAction, p.DefaultErrnoRet)
}

// appliesOn is Docker's includes/excludes for a program without
// capabilities, on the generator's arches and kernels.
func appliesOn(s *Syscall, h host) bool {
	below := func(v string) bool { k, _ := parseKernel(v); return h.kernel.less(k) }
	if in := s.Includes; in != nil {
		if len(in.Caps) > 0 || len(in.Arches) > 0 && !slices.Contains(in.Arches, h.arch.name) || in.MinKernel != "" && below(in.MinKernel) {
			return false
		}
	}
	if ex := s.Excludes; ex != nil {
		if slices.Contains(ex.Arches, h.arch.name) || ex.MinKernel != "" && !below(ex.MinKernel) {
			return false
		}
	}
	return true
}

// gen turns fuzz bytes into a profile; past the end every byte is 0.
type gen struct {
	b    []byte
	vals []uint64 // the values rules compare with, for calls near them
}

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) pick(n int) int { return int(g.byte()) % n }

// value is a number near one a filter cares about, or 8 raw bytes.
func (g *gen) value() uint64 {
	edge := []uint64{0, 1, 0xffffffff, 1 << 32, 1<<32 | 1, ^uint64(0), tiocsti, 1<<32 | tiocsti, modeSetUID, modeSetGID, 0x40, 0x400000, 0x80000000}
	if i := g.pick(len(edge) + 1); i < len(edge) {
		return edge[i]
	}
	var v uint64
	for range 8 {
		v = v<<8 | uint64(g.byte())
	}
	return v
}

func (g *gen) action() (Action, *uint) {
	acts := []Action{ActAllow, ActErrno, ActErrno, ActKillProcess, ActKill, ActTrap, ActLog, ActTrace}
	a := acts[g.pick(len(acts))]
	if (a == ActErrno || a == ActTrace) && g.pick(2) == 1 {
		ret := uint(g.pick(40))
		return a, &ret
	}
	return a, nil
}

// profile makes a profile for a host of ABI native, which may also
// cover the compat ABIs.
func (g *gen) profile(native *archInfo, compat []string) *Profile {
	p := &Profile{Source: "fuzz"}
	p.DefaultAction, p.DefaultErrnoRet = g.action()
	switch g.pick(4) {
	case 1:
		p.Architectures = append([]string{native.scmp}, compat...)
	case 2:
		if len(compat) > 0 {
			p.Architectures = compat[len(compat)-1:]
		}
	case 3:
		p.ArchMap = []ArchMap{{Arch: native.scmp, SubArches: compat}}
	}
	for range g.pick(9) {
		s := Syscall{Names: []string{fuzzSyscalls[g.pick(len(fuzzSyscalls))]}}
		if g.pick(4) == 0 {
			s.Names = append(s.Names, fuzzSyscalls[g.pick(len(fuzzSyscalls))])
		}
		s.Action, s.ErrnoRet = g.action()
		for range g.pick(4) {
			a := Arg{Index: uint(g.pick(6)), Op: operators[g.pick(len(operators))], Value: g.value()}
			if a.Op == OpMaskedEqual {
				a.ValueTwo = g.value()
			}
			g.vals = append(g.vals, a.Value, a.ValueTwo)
			s.Args = append(s.Args, a)
		}
		switch g.pick(8) {
		case 1:
			s.Includes = &Filter{Arches: []string{[]string{"amd64", "arm64", "s390x"}[g.pick(3)]}}
		case 2:
			s.Includes = &Filter{MinKernel: []string{"4.0", "6.18", "7.0"}[g.pick(3)]}
		case 3:
			s.Excludes = &Filter{MinKernel: []string{"4.0", "6.18", "7.0"}[g.pick(3)]}
		case 4:
			s.Includes = &Filter{Caps: []string{"CAP_SYS_ADMIN"}}
		}
		p.Syscalls = append(p.Syscalls, s)
	}
	return p
}

// calls are argument vectors at and around the values the rules compare
// with, and at the ones omega-run's own rules look for.
func (g *gen) calls() [][6]uint64 {
	out := [][6]uint64{{}, {0, tiocsti, 0x40, modeSetUID, 0, 0}, {1<<32 | 1, 1<<32 | tiocsti, 0x400000, modeSetGID, modeSetGID, 0}}
	for _, v := range g.vals {
		for _, x := range []uint64{v, v + 1, v - 1, v ^ 1<<32, v & 0xffffffff, ^v} {
			var a [6]uint64
			for i := range a {
				a[i] = x
			}
			out = append(out, a)
			a[g.pick(6)] ^= 1 // one argument off by one bit
			out = append(out, a)
		}
	}
	return out
}
