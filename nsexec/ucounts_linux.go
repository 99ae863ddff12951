//go:build linux

package nsexec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// halvedCounts are what the kernel counts per user across all namespaces,
// each level checked against its own limit: the host's (the same from
// every namespace) and this user namespace's, which gets half. Namespaces,
// whose host limits no namespace below shows, get nsCount each.
// cinit_ucounts.c has the same tables.
var halvedCounts = [...][2]string{
	{"/proc/sys/fs/inotify/max_user_instances", "/proc/sys/user/max_inotify_instances"},
	{"/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"},
	{"/proc/sys/fs/fanotify/max_user_groups", "/proc/sys/user/max_fanotify_groups"},
	{"/proc/sys/fs/fanotify/max_user_marks", "/proc/sys/user/max_fanotify_marks"},
}

var nsCounts = [...]string{"user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"}

const nsCount = "1024"

// capUserCounts sets this user namespace's limits: the program's inotify
// instances count against the caller's uid on the host too, and the
// user's processes outside keep the other half. A count this kernel lacks
// is skipped.
func capUserCounts() error {
	// A /proc without /proc/sys (a unit's ProcSubset=pid) would have
	// every count skipped as missing: said instead (cinit_ucounts.c).
	if _, err := os.Stat("/proc/sys"); errors.Is(err, fs.ErrNotExist) {
		return errors.New("/proc/sys is missing (a unit's ProcSubset=pid)")
	}
	for _, c := range halvedCounts {
		b, err := os.ReadFile(c[0])
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		host, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || host < 0 {
			return fmt.Errorf("%s: %q", c[0], b)
		}
		if err := setCount(c[1], strconv.FormatInt(host-host/2, 10)); err != nil {
			return err
		}
	}
	for _, kind := range nsCounts {
		if err := setCount("/proc/sys/user/max_"+kind+"_namespaces", nsCount); err != nil {
			return err
		}
	}
	return nil
}

func setCount(path, v string) error {
	if err := os.WriteFile(path, []byte(v), 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// sharedLimits are the resource limits the kernel also counts per user at
// each level of user namespaces (processes and threads, pending signals,
// message-queue bytes): in the sandbox's the program's count is held to
// its own limit before the host's is held to the caller's, so half the
// caller's soft limit, as the hard one too (the program cannot raise it
// back), leaves the user's processes outside the other half.
// cinit_ucounts.c has the same table.
var sharedLimits = [...]int{unix.RLIMIT_NPROC, unix.RLIMIT_SIGPENDING, unix.RLIMIT_MSGQUEUE}

// halveSharedLimits sets this process's shared limits before it starts
// the program: not one the caller gave (--rlimit), nor an unlimited one.
// nproc gets own more, the init stage's tasks that stay beside the
// program and count in the namespace too, up to the caller's limit:
// left out there, a small limit (20) left the Go init stage's program
// none to start with, its count having those to come (laterTasks).
func halveSharedLimits(given []rlimits.Limit, own uint64) error {
	for _, r := range sharedLimits {
		if slices.ContainsFunc(given, func(l rlimits.Limit) bool { return l.Resource == r }) {
			continue
		}
		var cur unix.Rlimit
		if err := unix.Getrlimit(r, &cur); err != nil {
			return fmt.Errorf("getrlimit: %w", err)
		}
		if cur.Cur == unix.RLIM_INFINITY {
			continue
		}
		half := cur.Cur - cur.Cur/2
		if r == unix.RLIMIT_NPROC {
			callerNproc = cur.Cur
			half = min(half+own, cur.Cur)
		}
		if err := unix.Setrlimit(r, &unix.Rlimit{Cur: half, Max: half}); err != nil {
			return fmt.Errorf("setrlimit: %w", err)
		}
	}
	return nil
}

// callerNproc is the caller's nproc as halveSharedLimits found it (0:
// left as it was), for trimOwnTasks.
var callerNproc uint64

// laterTasks are the threads PID 1's Go runtime may start between the
// limits, set as it confines itself, and the program's start: 1 to 5
// measured. The limits count them in advance; trimOwnTasks takes back
// those that did not come.
const laterTasks = 6

// trimOwnTasks lowers nproc to half the caller's and own, PID 1's tasks
// counted right before it starts the program; called off the profile's
// thread (offThread), which a custom profile would kill on prlimit64.
func trimOwnTasks(own uint64) {
	var cur unix.Rlimit
	half := callerNproc - callerNproc/2
	if callerNproc == 0 || unix.Getrlimit(unix.RLIMIT_NPROC, &cur) != nil || half+own >= cur.Cur {
		return
	}
	_ = unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: half + own, Max: half + own})
}

// ownOnTop gives --rlimit's nproc the init stage's own tasks on top, as
// halveSharedLimits gives the caller's half: they count in the namespace
// too, and the program gets the number asked for. A side kept from this
// process (prlimit's "SOFT:" and ":HARD") stays as it is; a hard limit
// rises no higher than this process's, which takes CAP_SYS_RESOURCE.
// cinit_env.c's omega_apply_limits does the same.
func ownOnTop(limits []rlimits.Limit, own uint64) []rlimits.Limit {
	i := slices.IndexFunc(limits, func(l rlimits.Limit) bool { return l.Resource == unix.RLIMIT_NPROC })
	var cur unix.Rlimit
	if i < 0 || own == 0 || unix.Getrlimit(unix.RLIMIT_NPROC, &cur) != nil {
		return limits
	}
	l := limits[i]
	switch {
	case l.KeepHard:
		l.Hard = cur.Max
	case l.Hard < cur.Max:
		l.Hard = min(plus(l.Hard, own), cur.Max)
	}
	if l.KeepSoft {
		l.Soft = min(cur.Cur, l.Hard)
	} else {
		l.Soft = min(plus(l.Soft, own), l.Hard)
	}
	l.KeepSoft, l.KeepHard = false, false
	return append(append(limits[:i:i], l), limits[i+1:]...)
}

// plus is v+n, unless v is unlimited.
func plus(v, n uint64) uint64 {
	if v == unix.RLIM_INFINITY || v > unix.RLIM_INFINITY-1-n {
		return v
	}
	return v + n
}

// ownTasks counts this process's threads: the Go runtime's, 5 when
// the init stage starts and 8 to 10 by the time it starts the program.
func ownTasks() uint64 {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0 // the program then gets less, never more
	}
	return uint64(len(tasks))
}

// userCounts is cinit_ucounts.c's omega_user_counts for the counts:
// capped where the spec asks, a warning where that failed, or with
// --fail-closed the launch's end. The limits wait for shareLimits.
func userCounts(s *Spec, w warner) error {
	if !s.UserCounts {
		return nil
	}
	return leftOpen(s, w, "inotify, fanotify and namespace", capUserCounts())
}

// shareLimits is omega_user_counts' for the limits, set as the init
// stage confines itself, before it installs the program's seccomp
// profile (which may refuse prlimit64; without PID 1 it binds this whole
// process): PID 1 (pid1) counts its Go runtime's threads, and
// laterTasks, which trimOwnTasks takes back when it starts the program. They need no /proc/sys, which a container or a
// unit's ProtectKernelTunables= keeps read-only.
func shareLimits(s *Spec, w warner) error {
	if !s.UserCounts {
		return nil
	}
	own := uint64(0) // without PID 1 its tasks become the program's
	if s.PID1 {
		own = ownTasks() + laterTasks
	}
	return leftOpen(s, w, "process, pending-signal and message-queue", halveSharedLimits(s.Limits, own))
}

func leftOpen(s *Spec, w warner, what string, err error) error {
	if err == nil {
		return nil
	}
	msg := "the program may use up your user's " + what + " limits, which your programs outside share (" + err.Error() + ")"
	if s.FailClosed {
		return errors.New("--fail-closed: " + msg)
	}
	w.warn(msg)
	return nil
}
