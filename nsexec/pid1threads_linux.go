package nsexec

import (
	"fmt"
)

// PID 1's other threads. The Go init stage confines the thread that
// starts the program (confine), and capabilities, the bounding set and
// no_new_privs are each thread's own: the Go runtime's other threads,
// where PID 1's own calls run (offThread: signal forwarding, reaping,
// --rlimit's prlimit), kept the namespace's capabilities. None of those
// calls needs one once the program's ids are set (prlimit and kill on a
// process of the same ids, ptrace of its own child, wait4, setpgid), so
// they go on every thread too. Landlock and the seccomp profile stay the
// locked thread's: a Landlock domain of their own (each
// landlock_restrict_self makes a new one) would not be an ancestor of
// the program's, and its scopes would refuse PID 1 signalling the
// program (LANDLOCK_SCOPE_SIGNAL) and a connect broker connecting from
// outside the program's domain; the profile may kill prlimit64.

// confineInit is confine for the init stage: with PID 1, every thread
// of this process loses its capabilities and gets no_new_privs after
// confine (which still needs them); the other threads' bounding sets
// stay (pid1threads_nocgo_linux.go says why). A failure is a warning (--fail-closed: refused): the program is confined
// either way, this is defence in depth.
func confineInit(s *Spec, w warner) error {
	if !s.PID1 || s.Plain {
		return confine(s, w)
	}
	// The program's profile last, as confine would: it binds the
	// thread that runs dropOnAllThreads' calls (signals, /proc, capset),
	// and a custom one may kill them.
	profile := s.Seccomp
	s.Seccomp = nil
	err := confine(s, w)
	s.Seccomp = profile
	if err != nil {
		return err
	}
	if err := othersConfined(s, w); err != nil {
		return err
	}
	// With the connect broker, supervise's startBroker installs it.
	if profile != nil && !brokered(s) {
		if err := installProfile(s); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	return nil
}

// othersConfined drops the other threads' capabilities and says what
// failed of that.
func othersConfined(s *Spec, w warner) error {
	// From a thread outside the program's Landlock domain, whose signal
	// scope refuses signals to the others before Linux 6.15 (the Go
	// runtime's, AllThreadsSyscall's, or cgo's).
	var err error
	offThread(func() { err = dropOnAllThreads() })
	if err == nil {
		return nil
	}
	const msg = "PID 1's other threads keep capabilities in the namespace (%v); the program is confined all the same"
	if s.FailClosed {
		return fmt.Errorf("--fail-closed: "+msg, err)
	}
	w.warn(fmt.Sprintf(msg, err))
	return nil
}
