//go:build linux

package cgroups

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// backend is one cgroup version's implementation.
type backend interface {
	version() int
	dirs() []string
	add(pid int) error
	fd() (int, bool)
	procs() ([]int, error)
	kill(pids []int) error
	remove() error
	oomKills() (n uint64, ok bool, err error)
	limitReached() (bool, error)
	close()
}

// Group is a cgroup created for one confined process tree. Its methods are
// not safe for concurrent use.
type Group struct {
	name    string
	limits  Limits
	b       backend
	deleted bool
	// OOMKilled's and MemoryLimitReached's answers, saved by Delete
	// before the files go away.
	oomKilled, limitHit bool
	oomErr, limitErr    error
}

// killTimeout bounds how long Delete waits for killed processes to leave.
const killTimeout = 10 * time.Second

// New creates a cgroup with limits l and returns it empty. name is the
// group's directory name; "" picks omega-run-<pid>-<random>. A name that
// already exists is an error, never reused. Where the group goes: see the
// package documentation. Errors wrap ErrUnavailable when this host offers no
// writable cgroup with the needed controllers, ErrInvalid for bad limits.
func New(name string, l Limits) (*Group, error) {
	if l.IsZero() {
		return nil, fmt.Errorf("cgroups: %w: no limit given", ErrInvalid)
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	name, err := groupName(name)
	if err != nil {
		return nil, err
	}
	var b backend
	switch v, serr := hostVersion(); v {
	case 2:
		b, err = newV2(unifiedRoot, name, l)
	case 1:
		b, err = newV1(name, l)
	default:
		err = noCgroupFS(serr)
	}
	if err != nil {
		return nil, err
	}
	return &Group{name: name, limits: l, b: b}, nil
}

// Probe reports whether New(…, l) would find a place for its group, without
// creating anything (for `omega-run check` and early flag validation). It
// returns nil or an error wrapping ErrUnavailable.
func Probe(l Limits) error {
	var err error
	switch v, serr := hostVersion(); v {
	case 2:
		_, err = planV2(unifiedRoot, l)
	case 1:
		_, err = planV1(l)
	default:
		err = noCgroupFS(serr)
	}
	return err
}

// hostVersion tells how this host mounts cgroups: 2 when /sys/fs/cgroup is
// the unified (v2) hierarchy, 1 for the legacy and hybrid layouts (v1
// hierarchies under it, perhaps v2 at /sys/fs/cgroup/unified without the
// controllers), 0 when there is nothing at /sys/fs/cgroup.
func hostVersion() (int, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(unifiedRoot, &st); err != nil {
		return 0, &os.PathError{Op: "statfs", Path: unifiedRoot, Err: err}
	}
	if st.Type == unix.CGROUP2_SUPER_MAGIC {
		return 2, nil
	}
	return 1, nil
}

func noCgroupFS(err error) error {
	return fmt.Errorf("cgroups: %w: no cgroup file system at %s: %w", ErrUnavailable, unifiedRoot, err)
}

func groupName(name string) (string, error) {
	if name == "" {
		var b [4]byte
		// getrandom(2) directly: crypto/rand would link in the whole FIPS
		// module (~370 KB) for these 4 bytes.
		n, err := ignoringEINTR(func() (int, error) { return unix.Getrandom(b[:], 0) })
		if err != nil || n != len(b) {
			if err == nil {
				err = unix.EIO
			}
			return "", fmt.Errorf("cgroups: random name: %w", os.NewSyscallError("getrandom", err))
		}
		return fmt.Sprintf("omega-run-%d-%x", os.Getpid(), b[:]), nil
	}
	if name == "." || name == ".." || strings.ContainsAny(name, "/\x00\n") || len(name) > 255 {
		return "", fmt.Errorf("cgroups: %w: bad group name %q", ErrInvalid, name)
	}
	return name, nil
}

// Name is the group's directory name.
func (g *Group) Name() string { return g.name }

// Limits returns the limits the group was created with.
func (g *Group) Limits() Limits { return g.limits }

// Version is 2 for a cgroup v2 group, 1 for cgroup v1 (legacy or hybrid).
func (g *Group) Version() int { return g.b.version() }

// Dirs lists the group's directories: one on v2, one per controller on v1.
func (g *Group) Dirs() []string { return g.b.dirs() }

// FD returns an open O_DIRECTORY descriptor of the group for
// SysProcAttr{UseCgroupFD: true, CgroupFD: fd} (clone3 CLONE_INTO_CGROUP,
// Linux 5.7+), which starts the child inside the group. ok is false on
// cgroup v1, which has no such mechanism: use Add right after Start there.
// The descriptor is close-on-exec and stays valid until Delete.
func (g *Group) FD() (fd int, ok bool) {
	if g.deleted {
		return -1, false
	}
	return g.b.fd()
}

// Add moves process pid (all its threads) into the group. Its existing
// children stay where they are, so on cgroup v1 call it right after Start,
// before the child is allowed to fork or run the program.
func (g *Group) Add(pid int) error {
	if g.deleted {
		return fmt.Errorf("cgroups: add %d to %s: group deleted", pid, g.name)
	}
	if err := g.b.add(pid); err != nil {
		return fmt.Errorf("cgroups: add %d to %s: %w", pid, strings.Join(g.Dirs(), ", "), err)
	}
	return nil
}

// Pids lists the processes in the group and its descendants.
func (g *Group) Pids() ([]int, error) {
	if g.deleted {
		return nil, nil
	}
	ps, err := g.b.procs()
	if err != nil {
		return nil, fmt.Errorf("cgroups: list processes of %s: %w", g.name, err)
	}
	return ps, nil
}

// OOMKilled reports whether the kernel's OOM killer killed a process of the
// group (v2: memory.events oom_kill; v1: memory.oom_control oom_kill),
// for the group's memory limit or not (MemoryLimitReached tells). It is
// false when no memory limit was set.
// After Delete it returns what it saw just before the group was removed.
func (g *Group) OOMKilled() (bool, error) {
	if g.deleted {
		return g.oomKilled, g.oomErr
	}
	n, _, err := g.b.oomKills()
	if err != nil {
		return false, fmt.Errorf("cgroups: OOM kill count of %s: %w", g.name, err)
	}
	return n > 0, nil
}

// MemoryLimitReached reports whether the group's memory ever reached its
// limit (v2: memory.events oom, an allocation about to fail there; v1:
// memory.failcnt or memory.memsw.failcnt). An OOM kill in a group that
// never did came from outside it: the machine out of memory, or an
// enclosing cgroup's limit. After Delete it returns what it saw just
// before the group was removed.
func (g *Group) MemoryLimitReached() (bool, error) {
	if g.deleted {
		return g.limitHit, g.limitErr
	}
	hit, err := g.b.limitReached()
	if err != nil {
		return false, fmt.Errorf("cgroups: memory limit of %s: %w", g.name, err)
	}
	return hit, nil
}

// Delete kills every process left in the group (SIGKILL), waits until they
// are gone and removes the group. Call it once the confined tree has been
// waited for. Calling it again is a no-op.
func (g *Group) Delete() error {
	if g.deleted {
		return nil
	}
	g.oomKilled, g.oomErr = g.OOMKilled()
	g.limitHit, g.limitErr = g.MemoryLimitReached()
	if err := g.killAll(); err != nil {
		return err
	}
	if err := g.b.remove(); err != nil {
		return fmt.Errorf("cgroups: remove %s: %w", strings.Join(g.Dirs(), ", "), err)
	}
	g.b.close()
	g.deleted = true
	return nil
}

// killAll signals the group's processes until none is left.
func (g *Group) killAll() error {
	deadline := time.Now().Add(killTimeout)
	for {
		pids, err := g.b.procs()
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("cgroups: list processes of %s: %w", g.name, err)
		}
		if len(pids) == 0 {
			return nil
		}
		if slices.Contains(pids, os.Getpid()) {
			return fmt.Errorf("cgroups: %s holds this process itself; not killing it", g.name)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroups: %s: %d process(es) still there %v after SIGKILL", g.name, len(pids), killTimeout)
		}
		if err := g.b.kill(pids); err != nil {
			return fmt.Errorf("cgroups: kill the processes of %s: %w", g.name, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
