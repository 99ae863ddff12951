//go:build linux && cgo

package seccomp

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"
)

// compileJSON compiles a profile given as JSON text for this host.
func compileJSON(t *testing.T, text string) ([]insn, []string, error) {
	t.Helper()
	p, err := Parse("test.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	prog, warnings, err := Compile(p)
	if err != nil {
		return nil, warnings, err
	}
	insns, err := decode(prog.BPF, binary.NativeEndian)
	if err != nil {
		t.Fatal(err)
	}
	return insns, warnings, nil
}

// TestCustomProfileSemantics covers the rules libseccomp cannot express
// by itself: an argument check that overrides an unconditional rule of
// the same syscall, and two checks of one argument (both must hold in a
// rule looser than the default, either in a stricter one, as runc reads
// it). For each syscall the first listed rule whose checks hold decides,
// then the unconditional rule, then the default action.
func TestCustomProfileSemantics(t *testing.T) {
	amd64 := mustArchName(t, "amd64")
	prog, warnings, err := compileJSON(t, `{
		"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 13,
		"syscalls": [
			{"names": ["getppid", "ioctl", "fcntl"], "action": "SCMP_ACT_ALLOW"},
			{"names": ["fcntl"], "action": "SCMP_ACT_ERRNO", "errnoRet": 22, "args": [{"index": 1, "value": 1033, "op": "SCMP_CMP_EQ"}]},
			{"names": ["kill"], "action": "SCMP_ACT_ALLOW", "args": [
				{"index": 1, "value": 0, "op": "SCMP_CMP_GT"},
				{"index": 1, "value": 16, "op": "SCMP_CMP_LT"}]},
			{"names": ["dup3"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 2, "value": 0, "op": "SCMP_CMP_EQ"}]},
			{"names": ["dup3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1, "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_EQ"}]},
			{"names": ["tgkill"], "action": "SCMP_ACT_KILL_PROCESS", "args": [
				{"index": 2, "value": 9, "op": "SCMP_CMP_EQ"},
				{"index": 2, "value": 19, "op": "SCMP_CMP_EQ"}]}
		]}`)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	for _, c := range []struct {
		syscall string
		args    []uint64
		want    ret
	}{
		{"getppid", nil, allow},
		{"getpid", nil, retErrno | 13},                   // default, with defaultErrnoRet
		{"ioctl", []uint64{0, tiocsti}, eperm},           // added to every profile
		{"ioctl", []uint64{0, tcgets}, allow},            // the unconditional allow
		{"fcntl", []uint64{0, 1033}, retErrno | 22},      // F_ADD_SEALS: the check wins
		{"fcntl", []uint64{0, 1}, allow},                 // else the unconditional rule
		{"kill", []uint64{1, 9}, allow},                  // 0 < sig < 16: both checks of arg1
		{"kill", []uint64{1, 20}, retErrno | 13},         // one fails: default
		{"kill", []uint64{1, 0}, retErrno | 13},          //
		{"dup3", []uint64{0, 1, 0}, allow},               // both rules match: the first listed
		{"dup3", []uint64{0, 1, 0x80000}, eperm},         // only the second
		{"dup3", []uint64{3, 1, 0x80000}, retErrno | 13}, // neither
		{"tgkill", []uint64{1, 1, 9}, retKillProcess},    // a stricter rule, one argument checked twice: either, as in runc
		{"tgkill", []uint64{1, 1, 19}, retKillProcess},   //
		{"tgkill", []uint64{1, 1, 15}, retErrno | 13},    // neither
	} {
		in := call{nr: nr(t, c.syscall, amd64), arch: amd64}
		copy(in.args[:], c.args)
		if got, err := run(prog, in); err != nil || got != c.want {
			t.Errorf("%s%#x = %s (%v), want %s", c.syscall, c.args, describeRet(got), err, describeRet(c.want))
		}
	}
}

// TestCompileWarningsAndErrors: what cannot be enforced is a warning,
// what makes no sense is an error.
func TestCompileWarningsAndErrors(t *testing.T) {
	cases := []struct {
		name, json string
		warning    string // substring of the only warning
		err        string // substring of the error
	}{
		{name: "unknown syscall", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["frobnicate", "reboot"], "action": "SCMP_ACT_ERRNO"}]}`,
			warning: "1 syscall unknown to libseccomp " + Version() + " has no rules and get the default action (allow): frobnicate"},
		{name: "unsupported arch", json: `{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_M68K"]}`,
			warning: "architecture SCMP_ARCH_M68K left out"},
		{name: "other byte order", json: `{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_S390X"]}`,
			warning: "architecture SCMP_ARCH_S390X left out: its byte order differs"},
		{name: "two actions", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mount"], "action": "SCMP_ACT_ERRNO"}, {"names": ["mount"], "action": "SCMP_ACT_KILL"}]}`,
			err: "test.json: syscalls[1]: mount has two unconditional actions, fail with EPERM and kill thread"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, warnings, err := compileJSON(t, c.json)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], c.warning) {
				t.Errorf("warnings %q, error %v; want one warning with %q", warnings, err, c.warning)
			}
		})
	}
}

// TestNarrowABIs: a check means on x32 and on 32-bit ABIs what it means
// in the guard, whichever side holds it (found by FuzzCompile).
// libseccomp compares only the low word of an x32 argument, so lseek(fd,
// 1<<32 | 5) passed a rule refusing offsets from 4096; on i386 it cut
// values to their low word, so personality(1) passed "!= 1<<32 | 1".
func TestNarrowABIs(t *testing.T) {
	amd64, x32, x86 := mustArchName(t, "amd64"), mustArchName(t, "x32"), mustArchName(t, "x86")
	prog, warnings, err := compileJSON(t, `{
		"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X32", "SCMP_ARCH_X86"],
		"syscalls": [
			{"names": ["lseek"], "action": "SCMP_ACT_ERRNO", "errnoRet": 22, "args": [{"index": 1, "value": 4096, "op": "SCMP_CMP_GE"}]},
			{"names": ["personality"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 4294967297, "op": "SCMP_CMP_NE"}]}]}`)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	for _, c := range []struct {
		arch    *archInfo
		syscall string
		arg     int
		value   uint64
		want    ret
	}{
		{amd64, "lseek", 1, 5, allow}, {amd64, "lseek", 1, 1<<32 | 5, retErrno | 22},
		{x32, "lseek", 1, 5, allow}, {x32, "lseek", 1, 4096, retErrno | 22}, {x32, "lseek", 1, 1<<32 | 5, retErrno | 22},
		{amd64, "personality", 0, 1<<32 | 1, allow}, {amd64, "personality", 0, 1, eperm},
		{x86, "personality", 0, 1, eperm}, // the argument is 32 bits: never 1<<32 | 1
	} {
		in := call{nr: nr(t, c.syscall, c.arch), arch: c.arch}
		in.args[c.arg] = c.value
		if got, err := run(prog, in); err != nil || got != c.want {
			t.Errorf("%s: %s arg%d=%#x: %s (%v), want %s", c.arch.name, c.syscall, c.arg, c.value, describeRet(got), err, describeRet(c.want))
		}
	}
}

// TestRulesLibseccompMerges: libseccomp merges the rules of a syscall
// into one tree and only equality survives it, so other checks of a
// syscall with several rules stay in the guard (found by FuzzCompile).
// Two ordered checks let calls through; "!=" with a second check hung
// seccomp_rule_add for good, and omega-run with it.
func TestRulesLibseccompMerges(t *testing.T) {
	amd64 := mustArchName(t, "amd64")
	rule := `{"names": ["personality"], "action": "SCMP_ACT_ERRNO", "args": [%s]}`
	arg := func(i int, op string, v uint64) string {
		return fmt.Sprintf(`{"index": %d, "value": %d, "op": "SCMP_CMP_%s"}`, i, v, op)
	}
	for _, c := range []struct {
		name  string
		rules [2]string
		calls map[[2]uint64]ret
	}{
		{"two ordered checks", [2]string{arg(0, "LT", 1<<32|5), arg(0, "LT", 0)},
			map[[2]uint64]ret{{0, 0}: eperm, {7, 0}: eperm, {0xffffffff, 0}: eperm, {1<<32 | 4, 0}: eperm, {1<<32 | 5, 0}: allow}},
		{"not equal and another check", [2]string{arg(0, "NE", 1) + ", " + arg(1, "LT", 5), arg(0, "NE", 1) + ", " + arg(1, "NE", 5)},
			map[[2]uint64]ret{{0, 3}: eperm, {0, 7}: eperm, {0, 5}: allow, {1, 3}: allow}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [` + fmt.Sprintf(rule, c.rules[0]) + ", " + fmt.Sprintf(rule, c.rules[1]) + "]}"
			done := make(chan []insn, 1)
			go func() {
				prog, _, err := compileJSON(t, text)
				if err != nil {
					t.Error(err)
				}
				done <- prog
			}()
			var prog []insn
			select {
			case prog = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Compile did not return")
			}
			for args, want := range c.calls {
				in := call{nr: nr(t, "personality", amd64), arch: amd64, args: [6]uint64{args[0], args[1]}}
				if got, err := run(prog, in); err != nil || got != want {
					t.Errorf("personality(%#x, %#x) = %s (%v), want %s", args[0], args[1], describeRet(got), err, describeRet(want))
				}
			}
		})
	}
}

// TestRepeatedArgLaterStricterRule: a stricter rule that checks one
// argument twice, read as either check (runc's reading), does not take
// a call from a later rule the kernel ranks above it, which decides
// there as written.
func TestRepeatedArgLaterStricterRule(t *testing.T) {
	amd64 := mustArchName(t, "amd64")
	prog, warnings, err := compileJSON(t, `{
		"defaultAction": "SCMP_ACT_ALLOW",
		"syscalls": [
			{"names": ["kill"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1, "args": [
				{"index": 1, "value": 10, "op": "SCMP_CMP_GE"},
				{"index": 1, "value": 20, "op": "SCMP_CMP_LE"}]},
			{"names": ["kill"], "action": "SCMP_ACT_KILL_PROCESS", "args": [{"index": 1, "value": 30, "op": "SCMP_CMP_EQ"}]},
			{"names": ["kill"], "action": "SCMP_ACT_LOG", "args": [{"index": 0, "value": 7, "op": "SCMP_CMP_EQ"}]}
		]}`)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	for _, c := range []struct {
		args []uint64
		want ret
	}{
		{[]uint64{1, 15}, eperm},          // both checks: as written
		{[]uint64{1, 5}, eperm},           // one: as runc reads it
		{[]uint64{1, 30}, retKillProcess}, // the later, stricter rule, as written
		{[]uint64{7, 30}, retKillProcess}, //
		{[]uint64{7, 25}, eperm},          // a later, looser rule does not win
	} {
		in := call{nr: nr(t, "kill", amd64), arch: amd64}
		copy(in.args[:], c.args)
		if got, err := run(prog, in); err != nil || got != c.want {
			t.Errorf("kill%#x = %s (%v), want %s", c.args, describeRet(got), err, describeRet(c.want))
		}
	}
}
