//go:build linux

package cgroups

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/containerd/cgroups/v3/cgroup2"
	"golang.org/x/sys/unix"
)

// unifiedRoot is where cgroup v2 is mounted on a unified host (tests use
// the unified mount of a hybrid host too).
const unifiedRoot = "/sys/fs/cgroup"

// v2 is a group in the unified hierarchy.
type v2 struct {
	m      *cgroup2.Manager
	dir    string
	memory bool
	cgfd   int // O_DIRECTORY fd for CLONE_INTO_CGROUP, -1 when not open
}

// v2Controllers lists the controllers l needs.
func v2Controllers(l Limits) []string {
	var cs []string
	if l.CPUs != 0 {
		cs = append(cs, "cpu")
	}
	if l.Memory != 0 {
		cs = append(cs, "memory")
	}
	if l.Pids != 0 {
		cs = append(cs, "pids")
	}
	return cs
}

// planV2 returns the group path (relative to unifiedRoot) of the parent the
// new group goes under: the parent of this process's cgroup (a cgroup that
// has processes cannot enable controllers for its children), or "/" when this
// process is in the root cgroup of its namespace.
func planV2(root string, l Limits) (string, error) {
	own, err := cgroup2.PidGroupPath(os.Getpid())
	if err != nil {
		return "", fmt.Errorf("cgroups: %w: reading /proc/self/cgroup: %w", ErrUnavailable, err)
	}
	parent := path.Dir(own)
	dir := filepath.Join(root, parent)
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return "", fmt.Errorf("cgroups: %w: %w", ErrUnavailable, err)
	}
	have := strings.Fields(string(data))
	for _, c := range v2Controllers(l) {
		if !slices.Contains(have, c) {
			return "", fmt.Errorf("cgroups: %w: the %s controller is not available in %s (it has: %s); "+
				"controllers are handed down through cgroup.subtree_control (with systemd: Delegate=yes)",
				ErrUnavailable, c, dir, strings.Join(have, " "))
		}
	}
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return "", fmt.Errorf("cgroups: %w: %s: %w; run as root, or inside a delegated cgroup subtree "+
			"(e.g. systemd-run --user --scope -p Delegate=yes omega-run …)", ErrUnavailable, dir, err)
	}
	return parent, nil
}

func newV2(root, name string, l Limits) (*v2, error) {
	parent, err := planV2(root, l)
	if err != nil {
		return nil, err
	}
	group := path.Join(parent, name)
	dir := filepath.Join(root, group)
	// Mkdir first: a name that already exists is someone else's group.
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroups: create %s: %w", dir, err)
	}
	res := &cgroup2.Resources{}
	if l.Memory != 0 {
		res.Memory = &cgroup2.Memory{Max: &l.Memory}
	}
	if l.Pids != 0 {
		res.Pids = &cgroup2.Pids{Max: l.Pids}
	}
	if l.CPUs != 0 {
		quota, period := l.CPUQuota()
		res.CPU = &cgroup2.CPU{Max: cgroup2.NewCPUMax(&quota, &period)}
	}
	m, err := cgroup2.NewManager(root, group, res)
	if err != nil {
		_ = os.Remove(dir)
		if errors.Is(err, unix.EBUSY) {
			return nil, fmt.Errorf("cgroups: %w: set up %s: %w (the parent cgroup has processes of its own, "+
				"and cgroup v2 gives controllers only to cgroups without them)", ErrUnavailable, dir, err)
		}
		return nil, fmt.Errorf("cgroups: set up %s: %w", dir, err)
	}
	if l.Memory != 0 {
		// No swap beyond the limit, as on v1 with memsw (the file is
		// absent without swap accounting).
		if _, err := os.Stat(filepath.Join(dir, "memory.swap.max")); err == nil {
			zero := int64(0)
			if err := m.Update(&cgroup2.Resources{Memory: &cgroup2.Memory{Swap: &zero}}); err != nil {
				_ = m.Delete()
				return nil, fmt.Errorf("cgroups: set memory.swap.max in %s: %w", dir, err)
			}
		}
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = m.Delete()
		return nil, fmt.Errorf("cgroups: %w", &os.PathError{Op: "open", Path: dir, Err: err})
	}
	return &v2{m: m, dir: dir, memory: l.Memory != 0, cgfd: fd}, nil
}

func (g *v2) version() int      { return 2 }
func (g *v2) dirs() []string    { return []string{g.dir} }
func (g *v2) add(pid int) error { return g.m.AddProc(uint64(pid)) }

func (g *v2) fd() (int, bool) { return g.cgfd, g.cgfd >= 0 }

func (g *v2) procs() ([]int, error) {
	ps, err := g.m.Procs(true)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = int(p)
	}
	return out, nil
}

// kill uses cgroup.kill (Linux 5.14+); the library falls back to freezing
// the group and signalling each process.
func (g *v2) kill([]int) error { return g.m.Kill() }

func (g *v2) remove() error { return g.m.Delete() }

func (g *v2) oomKills() (uint64, bool, error) {
	if !g.memory {
		return 0, false, nil
	}
	st, err := g.m.StatFiltered(cgroup2.StatMemoryEvents)
	if err != nil {
		return 0, false, err
	}
	if st.MemoryEvents == nil {
		return 0, false, fmt.Errorf("no memory.events in %s", g.dir)
	}
	return st.MemoryEvents.GetOomKill(), true, nil
}

func (g *v2) close() {
	if g.cgfd >= 0 {
		_ = unix.Close(g.cgfd)
		g.cgfd = -1
	}
}
