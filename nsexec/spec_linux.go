package nsexec

import (
	"fmt"
	"io"
	"os"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

// InitArg is argv[1] of the re-executed init stage.
const InitArg = "__omega_run_init__"

// PtyGuardArg is argv[1] of --pty's guardian (sandbox/ptyguard_linux.go),
// which the C constructors pass by as they do the init stage.
const PtyGuardArg = "__omega_run_pty_guard__"

// specFD is where the init stage finds its spec: the first ExtraFiles entry.
const specFD = 3

// Spec is everything the init stage needs. The parent resolves and
// compiles it all, so that the init stage only does what must happen
// inside the namespaces.
type Spec struct {
	Path string   // resolved program
	Argv []string // argv[0] as the user typed it
	// Env is added to the inherited environment (OMEGA_SANDBOX=…).
	Env []string
	// PID1 makes the init stage stay as PID 1 of a new pid namespace and
	// run the program as its child; otherwise it execs in place.
	PID1 bool
	// Mounts is what the init stage mounts; nil mounts nothing.
	Mounts *MountPlan
	// Unsetenv names variables removed from the program's environment
	// (sockets it cannot reach: SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS…).
	Unsetenv []string
	// Loopback brings lo up in a new network namespace.
	Loopback bool
	// KeepFDs passes fds 3…3+KeepFDs-1 on to the program.
	KeepFDs int
	// NewSession starts the program in a session of its own (no
	// controlling terminal): the fallback for TIOCSTI without seccomp.
	NewSession bool
	// Terminal starts the program in a session of its own with the first
	// of its fds 0–2 that is a terminal (the launcher's pseudo-terminal,
	// --pty) as its controlling terminal.
	Terminal bool
	// Foreground: the launcher is in the foreground process group of the
	// terminal on its stdio, without --pty, so what that terminal sends
	// its group reaches the program directly (the Go PID 1 does not
	// forward it: pid1group_linux.go).
	Foreground bool
	Landlock   landlock.Rules
	Seccomp    *seccomp.Program
	// Broker makes PID 1 decide and perform every connect(2) of the
	// program (see Broker).
	Broker     *Broker
	FailClosed bool
	// Plain skips every restriction (rwx): only ids, limits and the
	// environment are applied.
	Plain bool
	// User switches ids before the program runs (root callers only).
	User *Credentials
	// Hostname is set in the new uts namespace ("" keeps the host's).
	Hostname string
	// ClearEnv starts the program's environment empty (--clearenv);
	// Env is then all it gets.
	ClearEnv bool
	// Limits are resource limits set right before the program starts.
	Limits []rlimits.Limit
	// OwnKeyring makes the init stage (with its mounts) join a new, empty
	// session keyring: the caller's holds keys a program whose profile
	// allows keyctl would read as their possessor. Only then: a filter
	// around omega-run may kill on keyctl (systemd's ~@keyring).
	OwnKeyring bool
	// UserCounts makes the init stage, in the user namespace it owns,
	// cap what the kernel counts per user across namespaces (inotify
	// instances and watches, fanotify groups and marks) at half the
	// host's limits, so that the program cannot use up the caller's share
	// and break the file watchers of the user's editors outside.
	UserCounts bool
	// GoAhead makes the init stage wait, before anything else, for one
	// byte on the fd after the kept ones: the parent sends it once it has
	// put the init stage in its cgroup (cgroup v1 has no clone-into).
	GoAhead bool
	// CgroupNS unshares a cgroup namespace after the go-ahead.
	CgroupNS bool
	// RefuseAppended makes the init stage exit 125 when it inherits an
	// fd right after its own (the spec, KeepFDs, the go-ahead): a file an
	// embedder appended to cmd.ExtraFiles, which it would close unseen.
	// Command sets it when this process's own fd there is close-on-exec,
	// so that the child's can only have come from ExtraFiles.
	RefuseAppended bool
	// Probe makes the init stage exit 0 once the namespaces are set up
	// (omega-run check).
	Probe bool
	// LogJSON makes the init stage's warnings JSON lines, like the parent's.
	LogJSON bool
	// Warnings were computed by the parent; the init stage adds its own.
	Warnings []string
	// IgnoredSignals are set to SIG_IGN in the program's process right
	// before its execve: what the caller left ignored (IgnoredAtStart),
	// which an exec in place would have passed on.
	IgnoredSignals SignalSet
	// BlockedSignals is the program's signal mask as it starts: what the
	// caller had blocked (BlockedAtStart), which an exec in place would
	// have passed on, whatever the init stage blocked for itself.
	BlockedSignals SignalSet
	// ListenPID sets LISTEN_PID, where the program's environment has it,
	// to the program's own pid as it starts (PID 1's child): systemd's
	// socket activation names omega-run's pid, and sd_listen_fds(3)
	// ignores fds meant for another process.
	ListenPID bool
	// WatchdogPID does the same for WATCHDOG_PID: sd_watchdog_enabled(3)
	// ignores a watchdog meant for another process, and the service
	// would be killed for the pings it never sends.
	WatchdogPID bool
}

// BrokerGap is what stays open where sandbox mode runs without the broker
const (
	BrokerGapWhat = "unix sockets the host binds after the start outside /tmp, /run and the writable set stay reachable"
	BrokerGap     = BrokerGapWhat + " (this kernel's Landlock lacks RESOLVE_UNIX)"
)

// OtherNetRefused is said the first time the connect broker refuses,
// with --net none, a connect() on a socket of another network namespace
// than the sandbox's (both init stages: cinit.h has it too). The broker
// tells them by cookie alone, so a namespace the program made itself is
// refused too: TCP there is Landlock's already, UDP and MPTCP are lost.
const OtherNetRefused = "refused connect() on a socket of a network namespace other than the sandbox's (the host's, handed over or passed in; or one the program made): with --net none it " +
	"stays as it came, since Landlock's TCP rules do not cover MPTCP, SCTP or UDP; further refusals are not reported"

// Broker is the connect(2) broker of sandbox mode on kernels without
// Landlock's RESOLVE_UNIX: the program gets Filter, whose listener PID 1
// keeps; PID 1 reads each connect's address from the
// program's memory once, opens a unix socket path in the program's view
// of the file system, allows it only when it lies on a writable mount (the
// writable set, the private /tmp) or is one of Sockets, and connects the
// program's socket (a pidfd_getfd copy) itself, through the opened file,
// so that nothing the program changes afterwards alters what was checked.
// Other address families are connected as given, from PID 1, which shares
// the program's namespaces, ids and Landlock domain. Both init stages
// have one (cinit_broker.c, broker_linux.go).
type Broker struct {
	// Filter is the program's whole filter (seccomp.WithConnectBroker of
	// Spec.Seccomp), installed with a listener in place of Spec.Seccomp.
	Filter *seccomp.Program
	// Supervisor is PID 1's own filter, installed after it has started
	// the program: the broker needs pidfd_getfd and process_vm_readv,
	// which a custom profile may refuse. nil installs none.
	Supervisor *seccomp.Program
	// Sockets may be reached wherever they lie (--allow-socket, the kept
	// /run files); compared by device and inode at each connect.
	Sockets []string
}

// brokered tells whether PID 1 brokers the program's connects.
func brokered(s *Spec) bool { return s.Broker != nil && s.PID1 }

// encodeFor is s in the wire format (wire_linux.go) with the Landlock
// plan for this kernel.
func encodeFor(s *Spec) ([]byte, error) {
	// The plan is the full one; the init stage narrows it to WritesOnly
	// after its mounts succeed (see flagWritesOnly).
	full := s.Landlock
	full.WritesOnly = false
	return encodeSpec(s, landlock.Plan(full, landlock.EffectiveABI()))
}

// memfdFor writes s into an anonymous file the child inherits.
// specName names the spec's file, which IsSpec recognises.
const specName = "omega-run-spec"

// IsSpec tells whether f is an init stage's spec (Command's, Pending's):
// an embedder that sets cmd.ExtraFiles replaces it.
func IsSpec(f *os.File) bool { return f != nil && f.Name() == specName }

func memfdFor(s *Spec) (*os.File, error) {
	data, err := encodeFor(s)
	if err != nil {
		return nil, err
	}
	f, err := newMemfd(specName)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("write spec: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("rewind spec: %w", err)
	}
	return f, nil
}

// readSpec reads and closes the spec fd: a memfd (Command) or a pipe
// (Pending), read to its end. The Go init stage applies the Landlock
// rules through go-landlock and has no use for the plan.
func readSpec() (*Spec, error) {
	f := os.NewFile(specFD, "spec")
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read spec: %d bytes, %w", len(data), err)
	}
	if len(data) == 0 {
		os.Exit(125) // the launcher gave up before sending it, and said why
	}
	s, _, err := decodeSpec(data)
	if err == nil {
		keepReportFD(int(f.Fd()), s.KeepFDs)
	}
	return s, err
}
