//go:build linux

package cgroups

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// v1 is a group in the legacy hierarchies (one directory per controller).
type v1 struct {
	names []string          // controllers, in v1Controllers order
	dir   map[string]string // controller → the group's directory
	locks []int             // each directory, held with a shared flock (removeStale)
}

// planV1 finds, for every controller l needs, this process's own cgroup
// directory in that controller's hierarchy, which must be writable: the new
// group goes inside it.
func planV1(l Limits) (map[string]string, error) {
	mounts, err := v1Mounts()
	if err != nil {
		return nil, fmt.Errorf("cgroups: %w: finding the cgroup v1 mounts: %w", ErrUnavailable, err)
	}
	own, _, _, err := procCgroups()
	if err != nil {
		return nil, fmt.Errorf("cgroups: %w: reading /proc/self/cgroup: %w", ErrUnavailable, err)
	}
	dirs := map[string]string{}
	for _, n := range controllers(l) {
		m, ok := mounts[n]
		if !ok {
			return nil, fmt.Errorf("cgroups: %w: the cgroup v1 %s controller is not mounted", ErrUnavailable, n)
		}
		p, ok := own[n]
		if !ok {
			return nil, fmt.Errorf("cgroups: %w: this process's %s cgroup: not in /proc/self/cgroup", ErrUnavailable, n)
		}
		dir, ok := m.dir(p)
		if !ok {
			return nil, fmt.Errorf("cgroups: %w: this process's %s cgroup %s is outside what %s shows (%s)",
				ErrUnavailable, n, p, m.point, m.root)
		}
		if err := unix.Access(dir, unix.W_OK); errors.Is(err, unix.EROFS) {
			// Read-only for root too (a unit's ProtectControlGroups=):
			// no user helps, the caller says what does.
			return nil, fmt.Errorf("cgroups: %w: %s: %w", ErrUnavailable, dir, err)
		} else if err != nil {
			return nil, fmt.Errorf("cgroups: %w: %s: %w; cgroup v1 needs root (or a %s hierarchy made writable for this user)",
				ErrUnavailable, dir, err, n)
		}
		dirs[n] = dir
	}
	return dirs, nil
}

func newV1(name string, l Limits) (*v1, error) {
	parents, err := planV1(l)
	if err != nil {
		return nil, err
	}
	g := &v1{names: controllers(l), dir: map[string]string{}}
	// Mkdir first: a name that already exists is someone else's group.
	for _, n := range g.names {
		removeStale(parents[n])
		dir := filepath.Join(parents[n], name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			g.removeDirs()
			return nil, fmt.Errorf("cgroups: create %s: %w", dir, err)
		}
		g.dir[n] = dir
		// Fatal, as on v2: a later launch kills what an unlocked group
		// holds (removeStale).
		fd, err := lockGroup(dir)
		if err != nil {
			g.close()
			g.removeDirs()
			return nil, fmt.Errorf("cgroups: %w", err)
		}
		g.locks = append(g.locks, fd)
	}
	if err := g.set(l); err != nil {
		g.removeDirs()
		return nil, fmt.Errorf("cgroups: set up %s: %w", strings.Join(g.dirs(), ", "), err)
	}
	return g, nil
}

// set writes the limits into the new, empty group.
func (g *v1) set(l Limits) error {
	if dir, ok := g.dir["memory"]; ok {
		mem := strconv.FormatInt(l.Memory, 10)
		if err := writeFile(dir, "memory.limit_in_bytes", mem); err != nil {
			return err
		}
		// memsw is memory+swap: the same value means no swap beyond the
		// limit. The file is absent without swap accounting.
		if _, err := os.Stat(filepath.Join(dir, "memory.memsw.limit_in_bytes")); err == nil {
			if err := writeFile(dir, "memory.memsw.limit_in_bytes", mem); err != nil {
				return err
			}
		}
	}
	if dir, ok := g.dir["pids"]; ok {
		if err := writeFile(dir, "pids.max", strconv.FormatInt(l.Pids, 10)); err != nil {
			return err
		}
	}
	if dir, ok := g.dir["cpu"]; ok {
		quota, period := l.CPUQuota()
		if err := writeFile(dir, "cpu.cfs_period_us", strconv.FormatUint(period, 10)); err != nil {
			return err
		}
		if err := writeFile(dir, "cpu.cfs_quota_us", strconv.FormatInt(quota, 10)); err != nil {
			return err
		}
	}
	return nil
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

// add writes pid into cgroup.procs of every hierarchy.
func (g *v1) add(pid int) error {
	for _, dir := range g.dirs() {
		if err := writeFile(dir, "cgroup.procs", strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

// fd: cgroup v1 has no CLONE_INTO_CGROUP; the caller uses add.
func (g *v1) fd() (int, bool) { return -1, false }

// procs returns the processes in any of the group's hierarchies.
func (g *v1) procs() ([]int, error) {
	var out []int
	var err error
	for _, dir := range g.dirs() {
		if out, err = treeProcs(dir, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// kill sends SIGKILL to pids, pinned by pidfds (v1 has no cgroup.kill).
func (g *v1) kill(pids []int) error { return killPinned(pids, g.procs) }

// remove removes the group's directory in every hierarchy.
func (g *v1) remove() error {
	var errs []error
	for _, dir := range g.dirs() {
		errs = append(errs, removeTree(dir))
	}
	return errors.Join(errs...)
}

// oomKills reads the oom_kill counter of memory.oom_control (Linux 4.13+).
// memory.failcnt is no substitute: it counts every charge that hit the
// limit, most of them resolved by reclaim without a kill.
func (g *v1) oomKills() (uint64, bool, error) {
	dir, ok := g.dir["memory"]
	if !ok {
		return 0, false, nil
	}
	n, ok, err := readCounter(filepath.Join(dir, "memory.oom_control"), "oom_kill")
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return 0, false, fmt.Errorf("%s/memory.oom_control has no oom_kill counter (Linux 4.13+)", dir)
	}
	return n, true, nil
}

// limitReached: the peak usage at the limit, or a failed charge there.
// A charge that fails counts in the failcnt of the group whose limit it
// hit, never in a descendant's (a parent's limit) nor for the machine's
// own shortage. But Linux 6.16+ keeps memory.failcnt alone, and with
// memsw's limit the same, memsw's charge fails first: memory.failcnt
// stays 0 at the limit there, and the peak tells (within a 2 MiB huge
// page: a charge goes whole or not at all).
func (g *v1) limitReached() (bool, error) {
	dir, ok := g.dir["memory"]
	if !ok {
		return false, nil
	}
	n := map[string]uint64{}
	for _, f := range []string{"memory.failcnt", "memory.limit_in_bytes", "memory.max_usage_in_bytes",
		"memory.memsw.limit_in_bytes", "memory.memsw.max_usage_in_bytes"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if errors.Is(err, os.ErrNotExist) && strings.HasPrefix(f, "memory.memsw.") {
			continue // no swap accounting
		}
		if err != nil {
			return false, err
		}
		if n[f], err = strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); err != nil {
			return false, fmt.Errorf("%s/%s: %w", dir, f, err)
		}
	}
	const slack = 2 << 20
	return n["memory.failcnt"] > 0 || n["memory.max_usage_in_bytes"]+slack > n["memory.limit_in_bytes"] ||
		n["memory.memsw.limit_in_bytes"] > 0 && n["memory.memsw.max_usage_in_bytes"]+slack > n["memory.memsw.limit_in_bytes"], nil
}

func (g *v1) close() {
	for _, fd := range g.locks {
		_ = unix.Close(fd)
	}
	g.locks = nil
}
