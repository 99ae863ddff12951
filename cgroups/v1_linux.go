//go:build linux

package cgroups

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/containerd/cgroups/v3/cgroup1"
	specs "github.com/opencontainers/runtime-spec/specs-go"
	"golang.org/x/sys/unix"
)

// v1 is a group in the legacy hierarchies (one directory per controller).
type v1 struct {
	c     cgroup1.Cgroup
	names []cgroup1.Name
	dir   map[cgroup1.Name]string
}

// v1Controllers lists the controllers l needs.
func v1Controllers(l Limits) []cgroup1.Name {
	var ns []cgroup1.Name
	if l.CPUs != 0 {
		ns = append(ns, cgroup1.Cpu)
	}
	if l.Memory != 0 {
		ns = append(ns, cgroup1.Memory)
	}
	if l.Pids != 0 {
		ns = append(ns, cgroup1.Pids)
	}
	return ns
}

// pather is what the library's controllers implement to map a group path
// to a directory.
type pather interface{ Path(string) string }

// planV1 finds, for every controller l needs, the library's subsystem and
// this process's own cgroup directory in that hierarchy, which must be
// writable: the new group goes inside it.
func planV1(l Limits) ([]cgroup1.Subsystem, map[cgroup1.Name]string, error) {
	all, err := cgroup1.Default()
	if err != nil {
		return nil, nil, fmt.Errorf("cgroups: %w: finding the cgroup v1 mounts: %w", ErrUnavailable, err)
	}
	own := cgroup1.NestedPath("")
	var subs []cgroup1.Subsystem
	dirs := map[cgroup1.Name]string{}
	for _, n := range v1Controllers(l) {
		i := slices.IndexFunc(all, func(s cgroup1.Subsystem) bool { return s.Name() == n })
		if i < 0 {
			return nil, nil, fmt.Errorf("cgroups: %w: the cgroup v1 %s controller is not mounted", ErrUnavailable, n)
		}
		p, err := own(n)
		if err != nil {
			return nil, nil, fmt.Errorf("cgroups: %w: this process's %s cgroup: %w", ErrUnavailable, n, err)
		}
		dir := all[i].(pather).Path(p)
		if err := unix.Access(dir, unix.W_OK); err != nil {
			return nil, nil, fmt.Errorf("cgroups: %w: %s: %w; cgroup v1 needs root (or a %s hierarchy made writable for this user)",
				ErrUnavailable, dir, err, n)
		}
		subs = append(subs, all[i])
		dirs[n] = dir
	}
	return subs, dirs, nil
}

func newV1(name string, l Limits) (*v1, error) {
	subs, parents, err := planV1(l)
	if err != nil {
		return nil, err
	}
	g := &v1{names: v1Controllers(l), dir: map[cgroup1.Name]string{}}
	// Mkdir first: a name that already exists is someone else's group.
	for _, n := range g.names {
		dir := filepath.Join(parents[n], name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			g.removeDirs()
			return nil, fmt.Errorf("cgroups: create %s: %w", dir, err)
		}
		g.dir[n] = dir
	}
	res := &specs.LinuxResources{}
	if l.Memory != 0 {
		mem := l.Memory
		res.Memory = &specs.LinuxMemory{Limit: &mem}
		// memsw is memory+swap: the same value means no swap beyond the
		// limit. The file is absent without swap accounting.
		if _, err := os.Stat(filepath.Join(parents[cgroup1.Memory], "memory.memsw.limit_in_bytes")); err == nil {
			res.Memory.Swap = &mem
		}
	}
	if l.Pids != 0 {
		pids := l.Pids
		res.Pids = &specs.LinuxPids{Limit: &pids}
	}
	if l.CPUs != 0 {
		quota, period := l.CPUQuota()
		res.CPU = &specs.LinuxCPU{Quota: &quota, Period: &period}
	}
	hierarchy := cgroup1.WithHierarchy(func() ([]cgroup1.Subsystem, error) { return subs, nil })
	strict := func(c *cgroup1.InitConfig) error {
		// The default skips controllers this process is not in; every
		// controller here carries a limit, so that is an error.
		c.InitCheck = func(s cgroup1.Subsystem, _ cgroup1.Path, err error) error {
			return fmt.Errorf("%s controller: %w", s.Name(), err)
		}
		return nil
	}
	c, err := cgroup1.New(cgroup1.NestedPath(name), res, hierarchy, strict)
	if err != nil {
		g.removeDirs()
		return nil, fmt.Errorf("cgroups: set up %s: %w", strings.Join(g.dirs(), ", "), err)
	}
	g.c = c
	return g, nil
}

// removeDirs undoes a partial newV1; the directories are empty.
func (g *v1) removeDirs() {
	for _, dir := range g.dir {
		_ = os.Remove(dir)
	}
}

func (g *v1) version() int { return 1 }

func (g *v1) dirs() []string {
	var ds []string
	for _, n := range g.names {
		if d, ok := g.dir[n]; ok {
			ds = append(ds, d)
		}
	}
	return ds
}

func (g *v1) add(pid int) error { return g.c.AddProc(uint64(pid)) }

// fd: cgroup v1 has no CLONE_INTO_CGROUP; the caller uses add.
func (g *v1) fd() (int, bool) { return -1, false }

// procs returns the processes in any of the group's hierarchies.
func (g *v1) procs() ([]int, error) {
	var out []int
	for _, n := range g.names {
		ps, err := g.c.Processes(n, true)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if !slices.Contains(out, p.Pid) {
				out = append(out, p.Pid)
			}
		}
	}
	return out, nil
}

// kill sends SIGKILL to pids. Each process is pinned with a pidfd and only
// signalled if the group still lists it afterwards, so a pid that was
// recycled by a process outside the group is never hit.
func (g *v1) kill(pids []int) error {
	type pinned struct{ pid, fd int }
	var ps []pinned
	defer func() {
		for _, p := range ps {
			_ = unix.Close(p.fd)
		}
	}()
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if errors.Is(err, unix.ENOSYS) { // before Linux 5.3
			_ = unix.Kill(pid, unix.SIGKILL)
			continue
		}
		if err == nil {
			ps = append(ps, pinned{pid, fd})
		}
	}
	still, err := g.procs()
	if err != nil {
		return err
	}
	for _, p := range ps {
		if slices.Contains(still, p.pid) {
			if err := unix.PidfdSendSignal(p.fd, unix.SIGKILL, nil, 0); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("kill %d: %w", p.pid, err)
			}
		}
	}
	return nil
}

func (g *v1) remove() error { return g.c.Delete() }

// oomKills reads the oom_kill counter of memory.oom_control (Linux 4.13+).
// memory.failcnt is no substitute: it counts every charge that hit the
// limit, most of them resolved by reclaim without a kill.
func (g *v1) oomKills() (uint64, bool, error) {
	dir, ok := g.dir[cgroup1.Memory]
	if !ok {
		return 0, false, nil
	}
	f, err := os.Open(filepath.Join(dir, "memory.oom_control"))
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "oom_kill "); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			return n, true, err
		}
	}
	if err := sc.Err(); err != nil {
		return 0, false, err
	}
	return 0, false, fmt.Errorf("%s/memory.oom_control has no oom_kill counter (Linux 4.13+)", dir)
}

func (g *v1) close() {}
