package nsexec

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"unsafe"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// confine applies the program's restrictions to the calling thread, in the
// order that keeps each step possible: the bounding set goes first (that
// needs CAP_SETPCAP), then the user switch (CAP_SETUID), the remaining
// capabilities, no_new_privs (Landlock and seccomp need it), Landlock,
// and seccomp last so that the filter does not have to allow the setup
// calls. The caller holds runtime.LockOSThread.
func confine(s *Spec, w warner) error {
	var rs *landlock.Ruleset
	if !s.Plain {
		if err := dropBounding(); err != nil {
			return fmt.Errorf("capabilities: %w", err)
		}
		rules, release, err := heldRoots(s.Landlock)
		if err != nil {
			return err
		}
		rs, err = landlock.Prepare(rules)
		release()
		if err != nil {
			return err
		}
	}
	if s.User != nil {
		if err := becomeUser(s.User); err != nil {
			return err
		}
	}
	// Before the profile, which binds the program, not this: a custom
	// one may refuse prlimit64.
	if err := shareLimits(s, w); err != nil {
		return err
	}
	// Without PID 1 this process becomes the program: its --rlimit
	// limits now, before its profile, which may kill setting them.
	if !s.PID1 {
		if err := rlimits.Apply(s.Limits); err != nil {
			return err
		}
	}
	if s.Plain {
		return nil // rwx: ids and limits only
	}
	if err := clearCapabilities(); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_SET_NO_NEW_PRIVS)", Err: err}
	}
	enforced, err := rs.Enforce()
	if err != nil {
		return err
	}
	if !enforced && s.FailClosed {
		return fmt.Errorf("landlock: unavailable and --fail-closed is set")
	}
	// With the connect broker, PID 1's thread gets the program's filter
	// right before the program's fork (startBroker).
	if s.Seccomp != nil && !brokered(s) {
		if err := installProfile(s); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	return nil
}

// installProfile installs the program's seccomp profile. PID 1 forks the
// program from this thread, which passes it on: its other threads stay
// outside it (as outside Landlock, this thread's too; their capabilities
// confineInit drops), so that PID 1's own calls run there (offThread),
// which a custom profile may kill (prlimit64: its nproc trim, --rlimit).
func installProfile(s *Spec) error {
	if s.PID1 {
		return s.Seccomp.InstallThread()
	}
	return s.Seccomp.Install()
}

// becomeUser switches to u's ids and restores what the switch resets:
// dumpable 0 and the parent-death signal.
func becomeUser(u *Credentials) error {
	parent := initParent
	if parent == nil {
		parent = watchParent()
	}
	var pdeath int32
	if err := unix.Prctl(unix.PR_GET_PDEATHSIG, uintptr(unsafe.Pointer(&pdeath)), 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_GET_PDEATHSIG)", Err: err}
	}
	if err := switchUser(u); err != nil {
		return fmt.Errorf("--user: %w", err)
	}
	// Changing ids resets dumpable to fs.suid_dumpable, which may be
	// 1: the program, with these ids, could then ptrace PID 1.
	// runInit said 0 before; again.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_SET_DUMPABLE)", Err: err}
	}
	// It clears the parent-death signal too: a SIGKILL of omega-run
	// would leave the sandbox running.
	if pdeath != 0 {
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(pdeath), 0, 0, 0); err != nil {
			return &os.SyscallError{Syscall: "prctl(PR_SET_PDEATHSIG)", Err: err}
		}
	}
	// The signal is lost if omega-run died meanwhile: die as it
	// would have made this process die.
	if parent.gone() && pdeath != 0 {
		os.Exit(128 + int(pdeath))
	}
	return nil
}

// dropBounding empties this thread's bounding set. It can only shrink with
// CAP_SETPCAP, which an unprivileged rx caller lacks; its bounding set then
// stays as the kernel gave it, which grants nothing under no_new_privs.
// The kernel answers EINVAL for the first number past its last capability
// (cap_valid), which ends the loop: no cap_last_cap to read (an open and
// a read of /proc/sys right before rx's execve), and none to miss where
// /proc/sys is not mounted.
func dropBounding() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return &os.SyscallError{Syscall: "capget", Err: err}
	}
	if data[0].Effective&(1<<unix.CAP_SETPCAP) == 0 {
		return nil
	}
	for c := 0; c < 64; c++ { // the sets are 64 bits
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if err == unix.EINVAL && c > 0 { // past the kernel's last; 0 (CAP_CHOWN) every kernel has: a filter's answer
			return nil
		}
		if err != nil {
			return &os.SyscallError{Syscall: "prctl(PR_CAPBSET_DROP)", Err: err}
		}
	}
	return nil
}

// clearCapabilities empties the ambient, effective, permitted and
// inheritable sets of this thread.
func clearCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return &os.SyscallError{Syscall: "prctl(PR_CAP_AMBIENT_CLEAR_ALL)", Err: err}
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		if err == unix.EPERM { // dropping is always allowed: a filter's answer
			return fmt.Errorf("%w (%s)", &os.SyscallError{Syscall: "capset", Err: err}, CapsetRefused)
		}
		return &os.SyscallError{Syscall: "capset", Err: err}
	}
	return nil
}

// CapsetRefused says why capset failed with EPERM, which the kernel never
// answers to dropping capabilities (cinit.h's OMEGA_CAPSET_REFUSED, a Go
// test checks).
const CapsetRefused = "a seccomp filter around omega-run refuses capset, which drops the program's capabilities " +
	"and lets the init stage keep its own across its exec; allow capset in that filter"

// heldRoots names each writable root by an fd opened without following
// symlinks (/proc/self/fd/N): go-landlock opens rule paths following
// them, and the parent resolved every root, so a symlink found now was
// swapped in since — by another confined run sharing the directory — and
// must not redirect the rule. A missing root gets no rule, as in the C
// stage: go-landlock would open its path again, following a symlink made
// there in between. The device directories are the system's and keep
// their names.
func heldRoots(r landlock.Rules) (landlock.Rules, func(), error) {
	var fds []int
	release := func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}
	held := make([]string, 0, len(r.Writable))
	for _, p := range r.Writable {
		if slices.Contains(landlock.DeviceDirs, p) {
			held = append(held, p)
			continue
		}
		fd, err := openNoFollow(p)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			release()
			return r, nil, fmt.Errorf("landlock: writable root %w", err)
		}
		fds = append(fds, fd)
		held = append(held, "/proc/self/fd/"+strconv.Itoa(fd))
	}
	r.Writable = held
	return r, release, nil
}
