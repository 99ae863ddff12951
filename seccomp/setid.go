package seccomp

import "strings"

// Set-user-ID and set-group-ID mode bits.
const (
	modeSetUID = 0o4000
	modeSetGID = 0o2000
)

// setIDCall is a call that can give a file the set-id bits: mode is the
// index of its mode argument; flags, when set, the index of open flags
// that must ask for creation for the mode to matter.
type setIDCall struct {
	name  string
	mode  uint
	flags int // -1: the mode always applies
}

var setIDCalls = []setIDCall{
	{"chmod", 1, -1}, {"fchmod", 1, -1}, {"fchmodat", 2, -1}, {"fchmodat2", 2, -1},
	{"mknod", 1, -1}, {"mknodat", 2, -1}, {"creat", 1, -1},
	{"open", 2, 1}, {"openat", 3, 2},
}

// createFlags returns O_CREAT and __O_TMPFILE for an ABI: asm-generic
// values, except MIPS and PA-RISC, which number them differently.
func createFlags(a *archInfo) (creat, tmpfile uint64) {
	if strings.HasPrefix(a.name, "mips") {
		return 0x100, 0x800000
	}
	if strings.HasPrefix(a.name, "parisc") {
		return 0x100, 0x400000
	}
	return 0x40, 0x400000
}

// addSetIDRules makes every profile refuse set-user-ID and set-group-ID
// files: a sandbox started by root could otherwise leave a setuid-root
// program in the writable set for any local user to run later. Each bit
// is its own rule, because a masked compare tests one value. openat2
// hides its mode in a struct a filter cannot read, so it fails with
// ENOSYS and callers fall back to openat.
func (pl *plan) addSetIDRules(byName map[string]*syscallPlan) {
	for _, c := range setIDCalls {
		sp := byName[c.name]
		if sp == nil {
			sp = &syscallPlan{name: c.name}
			byName[c.name] = sp
		}
		var rules []condRule
		for _, bit := range []uint64{modeSetUID, modeSetGID} {
			rules = append(rules, c.rules(bit)...)
		}
		sp.guard = append(rules, sp.guard...)
	}
	sp := byName["openat2"]
	if sp == nil {
		sp = &syscallPlan{name: "openat2"}
		byName["openat2"] = sp
	}
	enosys := ret(38)
	sp.guard = append([]condRule{{act: retErrno | enosys, origin: "omega-run", stops: "set-id bits",
		note: "openat2's mode cannot be checked for set-id bits; ENOSYS makes callers use openat, added to every profile"}}, sp.guard...)
}

func (c setIDCall) rules(bit uint64) []condRule {
	what := map[uint64]string{modeSetUID: "set-user-ID", modeSetGID: "set-group-ID"}[bit]
	mode := Arg{Index: c.mode, Op: OpMaskedEqual, Value: bit, ValueTwo: bit}
	note := c.name + " with the " + what + " bit, added to every profile"
	if c.flags < 0 {
		return []condRule{{act: retErrno | errEPERM, origin: "omega-run", note: note, stops: "set-id bits", args: []Arg{mode}}}
	}
	withFlag := func(pick func(*archInfo) uint64) condRule {
		return condRule{act: retErrno | errEPERM, origin: "omega-run", note: note, stops: "set-id bits", argsFor: func(a *archInfo) []Arg {
			f := pick(a)
			return []Arg{{Index: uint(c.flags), Op: OpMaskedEqual, Value: f, ValueTwo: f}, mode}
		}}
	}
	return []condRule{
		withFlag(func(a *archInfo) uint64 { v, _ := createFlags(a); return v }),
		withFlag(func(a *archInfo) uint64 { _, v := createFlags(a); return v }),
	}
}
