//go:build linux

package landlock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI returns the Landlock ABI version the running kernel offers, 0 when
// Landlock is unavailable. The kernel's answer cannot change while this
// process runs, and a launch asks for it several times (version text,
// warnings, plan): it is queried once.
func ABI() int { return abiOnce() }

var abiOnce = sync.OnceValue(func() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
})

// EffectiveABI is the ABI go-landlock works with on this kernel: ABI,
// except that a kernel of ABI 6 or later without the fix for the signal
// scoping erratum counts as ABI 5. Plan needs this one to compute what
// go-landlock would enforce.
func EffectiveABI() int { return effectiveABIOnce() }

var effectiveABIOnce = sync.OnceValue(func() int {
	v := ABI()
	if v >= 6 {
		if errata, err := llsys.LandlockGetErrata(); err != nil || errata&0x2 == 0 {
			v = 5
		}
	}
	return v
})

// config is V9's rights (V10 would also handle UDP, which --net host must
// keep), trimmed to what the rules ask for, in best-effort mode so that
// older kernels enforce what they can; Warnings says what they cannot.
// Denials are logged after execve only when asked for.
func config(r Rules) ll.Config {
	c := ll.V9
	if !r.DenyTCP {
		c.HandledAccessNet = 0
	}
	if r.WritesOnly {
		c.HandledAccessFS &^= ReadSide
	}
	if r.LogDenials {
		c = c.EnableLoggingForSubprocesses()
	}
	return c.BestEffort()
}

// toLandlock is the rules for a kernel of Landlock ABI abi. Below ABI 2 the
// writable roots go without REFER: go-landlock's best effort gives up on
// the whole ruleset for a rule asking for a right the kernel lacks, and
// ABI 1 refuses every cross-directory rename or link anyway (EXDEV).
func (r Rules) toLandlock(abi int) []ll.Rule {
	writable := ll.RWDirs(r.Writable...)
	if abi >= 2 {
		writable = writable.WithRefer()
	}
	rules := []ll.Rule{writable.WithIoctlDev().WithResolveUnix().IgnoreIfMissing()}
	if !r.WritesOnly {
		read := ll.RODirs(r.ReadExec...)
		if r.UnixSockets {
			read = read.WithResolveUnix()
		}
		rules = append([]ll.Rule{read}, rules...)
	}
	var devs []string
	for _, d := range r.Devices {
		if _, err := os.Stat(d); err == nil {
			devs = append(devs, d)
		}
	}
	if len(devs) > 0 {
		rules = append(rules, ll.RWFiles(devs...).WithIoctlDev())
	}
	streams := r.Streams
	if !r.StreamsChecked {
		streams = writtenFiles(streams)
	}
	if len(streams) > 0 {
		rules = append(rules, ll.RWFiles(streams...).WithIoctlDev().IgnoreIfMissing())
	}
	return rules
}

// writtenFiles keeps the streams (/proc/self/fd/N) that are, in this
// process, what WrittenStreams takes (MissingStream): the launcher planned
// them from its own fds, and a library caller's command may have others
// there (a pipe, a memfd, a file opened read-only).
func writtenFiles(streams []string) []string {
	var fds []int
	for _, s := range streams {
		if fd, err := strconv.Atoi(strings.TrimPrefix(s, "/proc/self/fd/")); err == nil {
			fds = append(fds, fd)
		}
	}
	return WrittenStreams(fds...)
}

// Ruleset is a built, not yet enforced ruleset. Building opens every path,
// so it happens before the process switches to a user who may not be
// able to open them.
type Ruleset struct {
	fd    int
	flags uint32
}

// Prepare builds the ruleset for r. Enforced reports false when Landlock
// is unavailable (the ruleset then does nothing).
func Prepare(r Rules) (*Ruleset, error) {
	fd, flags, err := config(r).NewRulesetFD(r.toLandlock(EffectiveABI())...)
	if err != nil {
		return nil, fmt.Errorf("landlock: %w", err)
	}
	return &Ruleset{fd: fd, flags: flags}, nil
}

// Available reports whether the ruleset will enforce anything.
func (rs *Ruleset) Available() bool { return rs.fd >= 0 }

// RestrictThread applies r to the calling OS thread only, so that a
// following execve (or fork from this thread) carries it. The caller must
// hold runtime.LockOSThread and must already have set no_new_privs. It
// returns false when Landlock is unavailable.
func RestrictThread(r Rules) (bool, error) {
	rs, err := Prepare(r)
	if err != nil {
		return false, err
	}
	return rs.Enforce()
}

// Enforce applies the ruleset to the calling thread and closes it.
func (rs *Ruleset) Enforce() (bool, error) {
	if rs.fd < 0 {
		return false, nil
	}
	fd, flags := rs.fd, rs.flags
	rs.fd = -1
	defer func() { _ = closeFD(fd) }()
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		if errors.Is(err, errE2BIG) {
			return false, fmt.Errorf("landlock: too many nested rulesets: %w", err)
		}
		return false, fmt.Errorf("landlock: restrict_self: %w", err)
	}
	return true, nil
}
