//go:build linux

package cgroups

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// unifiedRoot is where cgroup v2 is mounted on a unified host (tests use
// the unified mount of a hybrid host too).
const unifiedRoot = "/sys/fs/cgroup"

// v2 is a group in the unified hierarchy.
type v2 struct {
	dir    string
	memory bool
	cgfd   int // O_DIRECTORY fd for CLONE_INTO_CGROUP, holding a shared flock (removeStale); -1 when not open
}

// planV2 returns the group path (relative to root) of the parent the new
// group goes under: the parent of this process's cgroup (a cgroup that has
// processes cannot enable controllers for its children), or "/" when this
// process is in the root cgroup of its namespace.
func planV2(root string, l Limits) (string, error) {
	_, own, ok, err := procCgroups()
	if err == nil && !ok {
		err = errors.New("no cgroup v2 (0::) entry")
	}
	if err != nil {
		return "", fmt.Errorf("cgroups: %w: reading /proc/self/cgroup: %w", ErrUnavailable, err)
	}
	parent := path.Dir(path.Clean("/" + own))
	dir := filepath.Join(root, parent)
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return "", fmt.Errorf("cgroups: %w: %w", ErrUnavailable, err)
	}
	have := strings.Fields(string(data))
	for _, c := range controllers(l) {
		if !slices.Contains(have, c) {
			return "", fmt.Errorf("cgroups: %w: the %s controller is not available in %s (it has: %s); "+
				"controllers are handed down through cgroup.subtree_control (with systemd: Delegate=yes)",
				ErrUnavailable, c, dir, strings.Join(have, " "))
		}
	}
	if err := unix.Access(dir, unix.W_OK); errors.Is(err, unix.EROFS) {
		return "", fmt.Errorf("cgroups: %w: %s: %w", ErrUnavailable, dir, err) // v1_linux.go's reason
	} else if err != nil {
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
	pdir := filepath.Join(root, parent)
	removeStale(pdir)
	dir := filepath.Join(pdir, name)
	// Mkdir first: a name that already exists is someone else's group.
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroups: create %s: %w", dir, err)
	}
	if err := enableControllers(pdir, controllers(l)); err != nil {
		_ = os.Remove(dir)
		if errors.Is(err, unix.EBUSY) {
			return nil, fmt.Errorf("cgroups: %w: set up %s: %w (the parent cgroup has processes of its own, "+
				"and cgroup v2 gives controllers only to cgroups without them)", ErrUnavailable, dir, err)
		}
		return nil, fmt.Errorf("cgroups: set up %s: %w", dir, err)
	}
	if err := setV2(dir, l); err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("cgroups: set up %s: %w", dir, err)
	}
	fd, err := lockGroup(dir)
	if err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("cgroups: %w", &os.PathError{Op: "open", Path: dir, Err: err})
	}
	return &v2{dir: dir, memory: l.Memory != 0, cgfd: fd}, nil
}

// enableControllers makes sure that pdir hands the controllers cs down to
// its children (cgroup.subtree_control). planV2 checked that pdir has them
// itself (cgroup.controllers), so its ancestors already hand them down.
func enableControllers(pdir string, cs []string) error {
	data, err := os.ReadFile(filepath.Join(pdir, "cgroup.subtree_control"))
	if err != nil {
		return err
	}
	on := strings.Fields(string(data))
	var add []string
	for _, c := range cs {
		if !slices.Contains(on, c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	return writeFile(pdir, "cgroup.subtree_control", strings.Join(add, " "))
}

// setV2 writes the limits into the new, empty group.
func setV2(dir string, l Limits) error {
	if l.Memory != 0 {
		if err := writeFile(dir, "memory.max", strconv.FormatInt(l.Memory, 10)); err != nil {
			return err
		}
		// No swap beyond the limit, as on v1 with memsw (the file is
		// absent without swap accounting).
		if _, err := os.Stat(filepath.Join(dir, "memory.swap.max")); err == nil {
			if err := writeFile(dir, "memory.swap.max", "0"); err != nil {
				return err
			}
		}
	}
	if l.Pids != 0 {
		if err := writeFile(dir, "pids.max", strconv.FormatInt(l.Pids, 10)); err != nil {
			return err
		}
	}
	if l.CPUs != 0 {
		quota, period := l.CPUQuota()
		if err := writeFile(dir, "cpu.max", fmt.Sprintf("%d %d", quota, period)); err != nil {
			return err
		}
	}
	return nil
}

func (g *v2) version() int   { return 2 }
func (g *v2) dirs() []string { return []string{g.dir} }

func (g *v2) add(pid int) error { return writeFile(g.dir, "cgroup.procs", strconv.Itoa(pid)) }

func (g *v2) fd() (int, bool) { return g.cgfd, g.cgfd >= 0 }

func (g *v2) procs() ([]int, error) { return treeProcs(g.dir, nil) }

// kill writes cgroup.kill (Linux 5.14+), which kills every process of the
// group and its descendants at once, forks in flight included. Before
// that: freeze the group (Linux 5.2+) so that nothing forks, SIGKILL the
// listed processes (it reaches frozen ones) pinned by pidfds, thaw.
func (g *v2) kill(pids []int) error {
	err := writeFile(g.dir, "cgroup.kill", "1")
	if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	frozen := writeFile(g.dir, "cgroup.freeze", "1") == nil
	err = killPinned(pids, g.procs)
	if frozen {
		if terr := writeFile(g.dir, "cgroup.freeze", "0"); err == nil {
			err = terr
		}
	}
	return err
}

func (g *v2) remove() error { return removeTree(g.dir) }

// oomKills reads the oom_kill counter of memory.events, which covers the
// group's descendants too.
func (g *v2) oomKills() (uint64, bool, error) {
	if !g.memory {
		return 0, false, nil
	}
	n, ok, err := readCounter(filepath.Join(g.dir, "memory.events"), "oom_kill")
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return 0, false, fmt.Errorf("%s/memory.events has no oom_kill counter", g.dir)
	}
	return n, true, nil
}

// limitReached reads memory.events oom: raised in the group whose
// limit an allocation could not get below, and its ancestors, never in
// its descendants (a kill for a parent's limit, or the machine's, counts
// in oom_kill alone).
func (g *v2) limitReached() (bool, error) {
	if !g.memory {
		return false, nil
	}
	n, _, err := readCounter(filepath.Join(g.dir, "memory.events"), "oom")
	return n > 0, err
}

func (g *v2) close() {
	if g.cgfd >= 0 {
		_ = unix.Close(g.cgfd)
		g.cgfd = -1
	}
}
