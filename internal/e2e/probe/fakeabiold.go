//go:build linux

package main

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// fsRights is the mask of filesystem rights each Landlock ABI knows;
// netRules and scopes are the ABIs that brought network rules (4) and
// scopes (6), restrictFlags the one that brought landlock_restrict_self's
// flags (7).
var fsRights = []uint64{0, 1<<13 - 1, 1<<14 - 1, 1<<15 - 1, 1<<15 - 1, 1<<16 - 1, 1<<16 - 1, 1<<16 - 1}

const (
	netRulesABI      = 4
	scopesABI        = 6
	restrictFlagsABI = 7
	ruleNetPort      = 2
)

// oldKernelRefuses is the errno a kernel of Landlock ABI abi returns for
// the call n that this kernel would accept, or 0: a ruleset handling
// rights, network access or scopes it does not know (EINVAL; a struct
// larger than its own with those fields set: E2BIG), a network rule
// (EINVAL), or flags to landlock_restrict_self (EINVAL). A launcher that
// asks for more than the ABI it was told fails on such a kernel: this
// makes it fail here too.
func oldKernelRefuses(n *seccompNotif, abi int) unix.Errno {
	if abi >= len(fsRights) {
		return 0
	}
	switch n.nr {
	case unix.SYS_LANDLOCK_CREATE_RULESET:
		var attr [24]byte
		size := min(int(n.args[1]), len(attr))
		local := []unix.Iovec{{Base: &attr[0], Len: uint64(size)}}
		remote := []unix.RemoteIovec{{Base: uintptr(n.args[0]), Len: size}}
		if _, err := unix.ProcessVMReadv(int(n.pid), local, remote, 0); err != nil {
			return 0 // let the kernel answer
		}
		fs := binary.LittleEndian.Uint64(attr[0:])
		net := binary.LittleEndian.Uint64(attr[8:])
		scoped := binary.LittleEndian.Uint64(attr[16:])
		switch {
		case abi < netRulesABI && (net != 0 || scoped != 0):
			return unix.E2BIG // its struct ends before them
		case abi < scopesABI && scoped != 0:
			return unix.E2BIG
		case fs&^fsRights[abi] != 0:
			return unix.EINVAL
		}
	case unix.SYS_LANDLOCK_ADD_RULE:
		if abi < netRulesABI && n.args[1] == ruleNetPort {
			return unix.EINVAL
		}
	case unix.SYS_LANDLOCK_RESTRICT_SELF:
		if abi < restrictFlagsABI && n.args[1] != 0 {
			return unix.EINVAL
		}
	}
	return 0
}
