package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"strconv"
	"strings"
)

// Process holds what the program runs as and with, for server
// deployments (bubblewrap's names where they exist).
type Process struct {
	// User, Group and Groups switch ids (names or numbers); root only.
	User   string
	Group  string
	Groups []string
	// ClearEnv starts from an empty environment; SetEnv (KEY=VALUE) and
	// UnsetEnv (KEY) edit it. OMEGA_SANDBOX is always set.
	ClearEnv bool
	SetEnv   []string
	UnsetEnv []string
	// Hostname is set in the sandbox's uts namespace.
	Hostname string
	// Rlimits are NAME=SOFT[:HARD] specs as prlimit(1) names them.
	Rlimits []string
	// Memory (bytes, K/M/G suffixes), Pids and CPUs (a fraction of one
	// CPU) put the program in a cgroup of its own with those limits
	// (Run: sandbox and rx modes; CommandContext: every mode, see there).
	Memory, Pids, CPUs string
	// ListenPID sets LISTEN_PID, where the program's environment has it,
	// to the program's own pid: systemd's socket activation names the
	// launcher's, and sd_listen_fds(3) ignores fds meant for another
	// process. It matters where the launcher supervises the program
	// (sandbox mode, cgroup limits); an exec in place keeps the pid. The
	// fds themselves: Options.PreserveFDs.
	ListenPID bool
	// WatchdogPID does the same for WATCHDOG_PID (systemd's WatchdogSec=):
	// sd_watchdog_enabled(3) ignores a watchdog meant for another process,
	// and the service is killed for the pings it never sends. Set it with
	// NotifySocket, which carries the pings.
	WatchdogPID bool
	// NotifySocket is the service manager's NOTIFY_SOCKET (a path or an
	// @abstract name), given when it started the launcher as a service.
	// Where the launcher supervises the program, the program gets a
	// socket of the launcher's as NOTIFY_SOCKET, and the launcher, the
	// service's main process, passes on its readiness, status and
	// watchdog messages and nothing else (no MAINPID=, no fds). An exec
	// in place leaves the program the socket itself, but for a program
	// running as root, whose MAINPID= systemd takes for any pid: the
	// launcher then supervises it.
	NotifySocket string
}

// ids is a resolved --user/--group/--groups.
type ids struct {
	uid, gid uint32
	groups   []uint32
}

// resolveIDs looks the names up; nil when no switch was asked for.
func (p Process) resolveIDs() (*ids, error) {
	if p.User == "" && p.Group == "" && len(p.Groups) == 0 {
		return nil, nil
	}
	if os.Geteuid() != 0 {
		return nil, errors.New("--user, --group and --groups need omega-run to run as root (it cannot switch to another user otherwise)")
	}
	if err := idSwitchRefused(); err != nil {
		return nil, err
	}
	out := &ids{}
	if p.User != "" {
		u, err := lookupUser(p.User)
		if err != nil {
			return nil, err
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		out.uid, out.gid = uint32(uid), uint32(gid)
	}
	if p.Group != "" {
		gid, err := lookupGroup("--group", p.Group)
		if err != nil {
			return nil, err
		}
		out.gid = gid
	}
	for _, g := range p.Groups {
		for _, name := range strings.Split(g, ",") {
			gid, err := lookupGroup("--groups", strings.TrimSpace(name))
			if err != nil {
				return nil, err
			}
			out.groups = append(out.groups, gid)
		}
	}
	// (uid_t)-1 tells setresuid and setresgid to leave the id as it is:
	// the program would run as root.
	if out.uid == noID || out.gid == noID || slices.Contains(out.groups, noID) {
		return nil, fmt.Errorf("--user, --group, --groups: id %d is not an id (the kernel reads it as \"unchanged\": the program would run as root)", noID)
	}
	return out, nil
}

const noID = ^uint32(0)

func lookupUser(name string) (*user.User, error) {
	if _, err := strconv.ParseUint(name, 10, 32); err == nil {
		if u, err := user.LookupId(name); err == nil {
			return u, nil
		}
		return &user.User{Uid: name, Gid: name}, nil // a bare uid: its own group
	}
	u, err := user.Lookup(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) {
		return nil, fmt.Errorf("--user %s: no such user", name)
	}
	if err != nil {
		return nil, fmt.Errorf("--user %s: %w", name, err)
	}
	return u, nil
}

func lookupGroup(flag, name string) (uint32, error) {
	if name == "" {
		return 0, fmt.Errorf("%s: an empty group name", flag)
	}
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), nil
	}
	g, err := user.LookupGroup(name)
	var unknown user.UnknownGroupError
	if errors.As(err, &unknown) {
		return 0, fmt.Errorf("%s %s: no such group", flag, name)
	}
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", flag, name, err)
	}
	n, _ := strconv.ParseUint(g.Gid, 10, 32)
	return uint32(n), nil
}

// checkEnv validates --setenv and --unsetenv.
func (p Process) checkEnv() error {
	for _, kv := range p.SetEnv {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("--setenv %q: want KEY=VALUE", kv)
		}
	}
	for _, k := range p.UnsetEnv {
		if k == "" || strings.Contains(k, "=") {
			return fmt.Errorf("--unsetenv %q: want a variable name", k)
		}
		// Unsets apply before sets, whatever the command line's order
		// (bubblewrap keeps it): one key in both is ambiguous.
		if hasEnvKey(p.SetEnv, k) {
			return fmt.Errorf("--setenv %s=… and --unsetenv %s: give only one of them for a variable", k, k)
		}
	}
	return nil
}

func hasEnvKey(env []string, key string) bool {
	return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
}

// service describes, for explain, what Process passes on from a service
// manager.
func (p Process) service() []string {
	var out []string
	if p.ListenPID {
		out = append(out, "socket activation: the fds of LISTEN_FDS are kept, and LISTEN_PID names the program where omega-run supervises it")
	}
	if p.NotifySocket != "" {
		out = append(out, "readiness: where omega-run supervises the program, it relays READY, STATUS, watchdog… (no MAINPID, no fds) to "+p.NotifySocket)
	}
	if p.WatchdogPID {
		out = append(out, "watchdog: WATCHDOG_PID names the program where omega-run supervises it")
	}
	return out
}

// programPath is the program's PATH, as the flags leave it, and whether
// it has one: the program is looked up as it would look it up itself.
func (p Process) programPath() (string, bool) {
	return p.lookupEnv("PATH")
}

// lookupEnv is the program's value of key, as the flags leave the
// caller's environment.
func (p Process) lookupEnv(key string) (string, bool) {
	for i := len(p.SetEnv) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(p.SetEnv[i], "="); k == key {
			return v, true
		}
	}
	if p.ClearEnv || slices.Contains(p.UnsetEnv, key) {
		return "", false
	}
	return os.LookupEnv(key)
}

// getenv is lookupEnv as os.Getenv: "" when unset.
func (p Process) getenv(key string) string {
	v, _ := p.lookupEnv(key)
	return v
}
