package landlock

import (
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// RulesetPlan is a ruleset worked out in advance for one Landlock ABI, as
// plain numbers and paths: what the C init stage (nsexec/cinit.c), which
// cannot run go-landlock, hands to landlock_create_ruleset,
// landlock_add_rule and landlock_restrict_self. All zero handled sets
// mean that nothing is enforced (Landlock unavailable, or too old for the
// rules, as go-landlock's best-effort downgrade decides).
type RulesetPlan struct {
	HandledFS, HandledNet, Scoped uint64
	// RestrictFlags go to landlock_restrict_self (audit logging).
	RestrictFlags uint32
	// Rules are added in order; none has an empty access mask.
	Rules []PathRule
}

// PathRule grants Access beneath Path.
type PathRule struct {
	Path   string
	Access uint64
	// Missing says what a path that cannot be opened does.
	Missing Missing
}

// Missing is what happens to a rule whose path cannot be opened.
type Missing uint32

const (
	// MissingFails makes any failure to open the path an error.
	MissingFails Missing = iota
	// MissingSkipped skips a path that does not exist (ENOENT); other
	// failures are errors (go-landlock's IgnoreIfMissing).
	MissingSkipped
	// MissingIgnored skips a path that cannot be opened for any reason
	// (the device files, which the Go init stage filters with os.Stat).
	MissingIgnored
	// MissingStream is a stream's /proc/self/fd/N: skipped unless fd N
	// of the process applying the rules is a regular file open for
	// writing. The launcher planned it from its own fd N, which a library
	// caller's command may replace (a pipe, a file opened read-only).
	MissingStream
)

// Enforces reports whether the plan restricts anything.
func (p RulesetPlan) Enforces() bool {
	return p.HandledFS != 0 || p.HandledNet != 0 || p.Scoped != 0
}

// The rights of go-landlock's rule helpers (RODirs, RWDirs, RWFiles).
const (
	accessRead = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	accessRW   = accessRead | llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile |
		llsys.AccessFSMakeChar | llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock |
		llsys.AccessFSMakeFifo | llsys.AccessFSMakeBlock | llsys.AccessFSMakeSym | llsys.AccessFSTruncate
	accessFile = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSTruncate | llsys.AccessFSReadFile
)

// abiSupport is what each ABI version can handle (go-landlock's table).
type abiSupport struct {
	fs, net, scoped uint64
	flags           uint32
}

func supportFor(abi int) abiSupport {
	var s abiSupport
	switch {
	case abi <= 0:
		return s
	case abi == 1:
		s.fs = 1<<13 - 1
	case abi == 2:
		s.fs = 1<<14 - 1
	case abi <= 4:
		s.fs = 1<<15 - 1
	case abi <= 8:
		s.fs = 1<<16 - 1
	default:
		s.fs = 1<<17 - 1
	}
	if abi >= 4 {
		s.net = 1<<2 - 1
		if abi >= 10 {
			s.net = 1<<4 - 1
		}
	}
	if abi >= 6 {
		s.scoped = 1<<2 - 1
	}
	switch {
	case abi == 7:
		s.flags = 1<<3 - 1
	case abi >= 8:
		s.flags = 1<<4 - 1
	}
	return s
}

// Plan computes what the Go init stage's config(r) and toLandlock() enforce
// through go-landlock on a kernel with Landlock ABI abi (EffectiveABI):
// V9's rights trimmed to the rules (no TCP rights without DenyTCP),
// logging for subprocesses when asked for, best effort, leaving out rules
// whose rights all fall away. On ABI 1 the writable roots do not ask for
// REFER (toLandlock): the kernel then refuses every rename or link into
// another directory (EXDEV), which confines writes, where go-landlock
// would enforce nothing at all. It is pure.
func Plan(r Rules, abi int) RulesetPlan {
	sup := supportFor(abi)
	want := supportFor(9) // ll.V9
	if !r.DenyTCP {
		want.net = 0
	}
	if r.WritesOnly {
		want.fs &^= ReadSide
	}
	p := RulesetPlan{
		HandledFS:  want.fs & sup.fs,
		HandledNet: want.net & sup.net,
		Scoped:     want.scoped & sup.scoped,
	}
	if r.LogDenials {
		p.RestrictFlags = llsys.FlagRestrictSelfLogNewExecOn & sup.flags
	}
	read := uint64(accessRead)
	if r.UnixSockets {
		read |= llsys.AccessFSResolveUnix
	}
	add := func(paths []string, access uint64, missing Missing) {
		access &= p.HandledFS
		if access == 0 {
			return
		}
		for _, path := range paths {
			p.Rules = append(p.Rules, PathRule{Path: path, Access: access, Missing: missing})
		}
	}
	add(r.ReadExec, read, MissingFails)
	add(r.Writable, accessRW|llsys.AccessFSRefer|llsys.AccessFSIoctlDev|llsys.AccessFSResolveUnix, MissingSkipped)
	add(r.Devices, accessFile|llsys.AccessFSIoctlDev, MissingIgnored)
	add(r.Streams, accessFile|llsys.AccessFSIoctlDev, MissingStream) // RWFiles: `> /dev/stdout` truncates; terminals: stty
	return p
}
