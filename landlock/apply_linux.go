//go:build linux

package landlock

import (
	"errors"
	"fmt"
	"os"

	ll "github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI returns the Landlock ABI version the running kernel offers, 0 when
// Landlock is unavailable.
func ABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// config is V9's rights (V10 would also handle UDP, which --net host must
// keep), trimmed to what the rules ask for, in best-effort mode so that
// older kernels enforce what they can; Warnings says what they cannot.
func config(r Rules) ll.Config {
	c := ll.V9
	if !r.DenyTCP {
		c.HandledAccessNet = 0
	}
	return c.EnableLoggingForSubprocesses().BestEffort()
}

func (r Rules) toLandlock() []ll.Rule {
	read := ll.RODirs(r.ReadExec...)
	if r.UnixSockets {
		read = read.WithResolveUnix()
	}
	rules := []ll.Rule{
		read,
		ll.RWDirs(r.Writable...).WithRefer().WithIoctlDev().WithResolveUnix().IgnoreIfMissing(),
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
	return rules
}

// RestrictThread applies r to the calling OS thread only, so that a
// following execve (or fork from this thread) carries it. The caller must
// hold runtime.LockOSThread and must already have set no_new_privs. It
// returns false when Landlock is unavailable.
func RestrictThread(r Rules) (bool, error) {
	fd, flags, err := config(r).NewRulesetFD(r.toLandlock()...)
	if err != nil {
		return false, fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return false, nil
	}
	defer func() { _ = closeFD(fd) }()
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		if errors.Is(err, errE2BIG) {
			return false, fmt.Errorf("landlock: too many nested rulesets: %w", err)
		}
		return false, fmt.Errorf("landlock: restrict_self: %w", err)
	}
	return true, nil
}
