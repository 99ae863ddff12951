package seccomp

import (
	"strings"
	"testing"
)

// TestRuleSelection: Docker's includes/excludes, for a program that
// holds no capabilities, on a given architecture and kernel.
func TestRuleSelection(t *testing.T) {
	amd64, arm64 := mustArchName(t, "amd64"), mustArchName(t, "arm64")
	h := host{arch: amd64, kernel: kernelVersion{5, 10}}
	cases := []struct {
		name string
		h    host
		in   *Filter
		ex   *Filter
		want bool
	}{
		{"no filter", h, nil, nil, true},
		{"needs a capability", h, &Filter{Caps: []string{"CAP_SYS_ADMIN"}}, nil, false},
		{"unless a capability", h, nil, &Filter{Caps: []string{"CAP_SYS_ADMIN"}}, true},
		{"this arch", h, &Filter{Arches: []string{"arm64", "amd64"}}, nil, true},
		{"this arch by alias", h, &Filter{Arches: []string{"x86_64"}}, nil, true},
		{"other arch", h, &Filter{Arches: []string{"arm64"}}, nil, false},
		{"excluded arch", host{arch: arm64}, nil, &Filter{Arches: []string{"arm64"}}, false},
		{"new enough kernel", h, &Filter{MinKernel: "4.8"}, nil, true},
		{"same kernel", h, &Filter{MinKernel: "5.10"}, nil, true},
		{"old kernel", h, &Filter{MinKernel: "5.11"}, nil, false},
		{"unknown kernel", host{arch: amd64}, &Filter{MinKernel: "4.8"}, nil, false},
		{"excluded from 5.9", h, nil, &Filter{MinKernel: "5.9"}, false},
		{"excluded from 6.0", h, nil, &Filter{MinKernel: "6.0"}, true},
	}
	for _, c := range cases {
		if got := c.h.selects(&Syscall{Includes: c.in, Excludes: c.ex}); got != c.want {
			t.Errorf("%s: selects = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSplit: what goes to libseccomp and what to the guard.
func TestSplit(t *testing.T) {
	eq := func(i uint, v uint64) Arg { return Arg{Index: i, Op: OpEqualTo, Value: v} }
	errno := errnoRule
	cases := []struct {
		name          string
		def           Action
		rules         []Syscall
		native, guard int
		uncond        bool
	}{
		{"unconditional only", ActAllow, []Syscall{errno(nil)}, 0, 0, true},
		{"unconditional default", ActAllow, []Syscall{{Names: []string{"x"}, Action: ActAllow}}, 0, 0, false},
		{"conditions, one action", ActAllow, []Syscall{errno([]Arg{eq(0, 1)}), errno([]Arg{eq(1, 2)})}, 2, 0, false},
		{"condition over unconditional", ActErrno, []Syscall{{Names: []string{"x"}, Action: ActAllow}, errno([]Arg{eq(0, 1)})}, 0, 1, true},
		{"condition as fallback: no-op", ActAllow, []Syscall{{Names: []string{"x"}, Action: ActAllow, Args: []Arg{eq(0, 1)}}}, 0, 0, false},
		{"two checks of one argument", ActErrno, []Syscall{{Names: []string{"x"}, Action: ActAllow, Args: []Arg{eq(0, 1), {Index: 0, Op: OpNotEqual, Value: 2}}}}, 0, 1, false},
		{"two checks of one argument, denied: either (runc)", ActAllow, []Syscall{errno([]Arg{eq(0, 1), {Index: 0, Op: OpNotEqual, Value: 2}})}, 0, 2, false},
		{"two equal checks of one argument, denied: either (runc)", ActAllow, []Syscall{errno([]Arg{eq(0, 1), eq(0, 2)})}, 2, 0, false},
		{"mixed actions", ActAllow, []Syscall{errno([]Arg{eq(0, 1)}), {Names: []string{"x"}, Action: ActKill, Args: []Arg{eq(0, 2)}}}, 0, 2, false},
	}
	for _, c := range cases {
		p := &Profile{DefaultAction: c.def, Syscalls: c.rules}
		pl, err := newPlan(p, host{arch: mustArchName(t, "amd64")})
		if err != nil {
			t.Fatal(err)
		}
		var sp *syscallPlan
		for _, s := range pl.syscalls {
			if s.name == "x" {
				sp = s
			}
		}
		if sp == nil {
			t.Fatalf("%s: no plan for x", c.name)
		}
		if len(sp.native) != c.native || len(sp.guard) != c.guard || (sp.uncond != nil) != c.uncond {
			t.Errorf("%s: native %d, guard %d, unconditional %v; want %d, %d, %v",
				c.name, len(sp.native), len(sp.guard), sp.uncond != nil, c.native, c.guard, c.uncond)
		}
	}
}

// errnoRule is "x fails with EPERM" with the given checks.
func errnoRule(args []Arg) Syscall {
	return Syscall{Names: []string{"x"}, Action: ActErrno, Args: args}
}

// TestPlanValidates: a profile built in Go, not parsed, is checked too.
func TestPlanValidates(t *testing.T) {
	p := &Profile{DefaultAction: ActAllow, Syscalls: []Syscall{{Names: []string{"x"}, Action: ActErrno,
		Args: []Arg{{Index: 9, Op: OpEqualTo}}}}}
	if _, err := newPlan(p, host{arch: mustArchName(t, "amd64")}); err == nil || !strings.Contains(err.Error(), "index 9 is out of range") {
		t.Errorf("newPlan of a bad profile: %v", err)
	}
}
