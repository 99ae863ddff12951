//go:build linux

package cgroups

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/omega-run/omega-run/internal/mountinfo"
	"golang.org/x/sys/unix"
)

// The cgroup file system, read and written directly: every setting here is
// one small write to one file, and every reading one small file.

// writeFile writes data to the existing cgroup file dir/file in one write
// (a cgroup file takes a value per write; it is never created or truncated).
func writeFile(dir, file, data string) error {
	p := filepath.Join(dir, file)
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(p, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return &os.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	n, err := ignoringEINTR(func() (int, error) { return unix.Write(fd, []byte(data)) })
	if err == nil && n != len(data) {
		err = unix.EIO
	}
	if err != nil {
		return &os.PathError{Op: "write " + strconv.Quote(data) + " to", Path: p, Err: err}
	}
	return nil
}

func ignoringEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}

// readCounter returns the value of the line "key N" of a flat keyed file
// (memory.events, memory.oom_control); ok is false when there is no such
// line.
func readCounter(file, key string) (n uint64, ok bool, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false, err
	}
	for line := range strings.Lines(string(data)) {
		if v, found := strings.CutPrefix(strings.TrimSpace(line), key+" "); found {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return 0, false, fmt.Errorf("%s: %s: %w", file, key, err)
			}
			return n, true, nil
		}
	}
	return 0, false, nil
}

// treeProcs appends to out the processes of dir and of every cgroup below
// it (their cgroup.procs), skipping those already listed. A missing dir is
// an error wrapping os.ErrNotExist; a descendant that goes away while it
// is read is skipped.
func treeProcs(dir string, out []int) ([]int, error) {
	return walkProcs(dir, out, true)
}

func walkProcs(dir string, out []int, top bool) ([]int, error) {
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		if !top && errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		return out, err
	}
	for f := range bytes.FieldsSeq(data) {
		pid, err := strconv.Atoi(string(f))
		if err != nil {
			return out, fmt.Errorf("%s/cgroup.procs: %w", dir, err)
		}
		if !slices.Contains(out, pid) {
			out = append(out, pid)
		}
	}
	subs, err := subdirs(dir)
	if err != nil {
		if !top && errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		return out, err
	}
	for _, s := range subs {
		if out, err = walkProcs(s, out, false); err != nil {
			return out, err
		}
	}
	return out, nil
}

// subdirs lists the child cgroups of dir.
func subdirs(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ds []string
	for _, e := range es {
		if e.IsDir() {
			ds = append(ds, filepath.Join(dir, e.Name()))
		}
	}
	return ds, nil
}

// removeTree removes the cgroup dir and every cgroup below it, deepest
// first, once they hold no process. A cgroup whose last process has just
// died can be busy for a moment: rmdir is retried for about 150ms. A dir
// that is already gone is not an error.
func removeTree(dir string) error {
	subs, err := subdirs(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, s := range subs {
		if err := removeTree(s); err != nil {
			return err
		}
	}
	delay := 10 * time.Millisecond
	for try := 1; ; try++ {
		err := unix.Rmdir(dir)
		if err == nil || err == unix.ENOENT {
			return nil
		}
		if err != unix.EBUSY || try == 5 {
			return &os.PathError{Op: "rmdir", Path: dir, Err: err}
		}
		time.Sleep(delay)
		delay *= 2
	}
}

// killPinned sends SIGKILL to pids. Each process is pinned with a pidfd and
// only signalled if list (the group's processes) still has it afterwards,
// so a pid that was recycled by a process outside the group is never hit.
func killPinned(pids []int, list func() ([]int, error)) error {
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
	still, err := list()
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

// procCgroups parses /proc/self/cgroup: the path of this process's cgroup
// in each v1 hierarchy by controller name ("name=systemd" for a named
// one), and in the unified hierarchy (v2, ok false without a "0::" line).
func procCgroups() (v1 map[string]string, v2 string, ok bool, err error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return nil, "", false, err
	}
	defer f.Close()
	return parseProcCgroup(f)
}

func parseProcCgroup(r io.Reader) (v1 map[string]string, v2 string, ok bool, err error) {
	v1 = map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2, ok = parts[2], true
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c != "" {
				v1[c] = parts[2]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", false, fmt.Errorf("/proc/self/cgroup: %w", err)
	}
	return v1, v2, ok, nil
}

// v1Mount is where a cgroup v1 hierarchy is mounted: the mount point and
// the cgroup of the hierarchy that appears there (its root, "/", unless a
// container bind-mounted a part of it).
type v1Mount struct{ point, root string }

// v1Mounts maps each controller of a mounted cgroup v1 hierarchy to its
// first mount in /proc/self/mountinfo.
func v1Mounts() (map[string]v1Mount, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMountinfo(f)
}

func parseMountinfo(r io.Reader) (map[string]v1Mount, error) {
	ms := map[string]v1Mount{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// 35 31 0:32 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
		pre, post, found := strings.Cut(sc.Text(), " - ")
		if !found {
			continue
		}
		// Fields are separated by one space, which the kernel escapes in
		// paths; strings.Fields would also split at \f, \v, \r and
		// U+0085, which it leaves as they are.
		space := func(r rune) bool { return r == ' ' }
		fields, super := strings.FieldsFunc(pre, space), strings.FieldsFunc(post, space)
		if len(fields) < 5 || len(super) < 3 || super[0] != "cgroup" {
			continue
		}
		m := v1Mount{point: mountinfo.Unescape(fields[4]), root: mountinfo.Unescape(fields[3])}
		for _, opt := range strings.Split(super[2], ",") {
			if _, dup := ms[opt]; !dup {
				ms[opt] = m
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("/proc/self/mountinfo: %w", err)
	}
	return ms, nil
}

// dir returns the directory under the mount of the hierarchy's cgroup p (a
// path from /proc/self/cgroup); ok is false when the mount does not show it.
func (m v1Mount) dir(p string) (string, bool) {
	rel := path.Clean("/" + p)
	if root := path.Clean("/" + m.root); root != "/" {
		var in bool
		if rel, in = strings.CutPrefix(rel, root); !in || (rel != "" && rel[0] != '/') {
			return "", false
		}
	}
	return filepath.Join(m.point, rel), true
}

// staleAge is how old a group must be before removeStale considers it: its
// maker locks it right after creating it.
var staleAge = time.Minute

// staleName matches a group name New makes: omega-run-<pid>-<8 hex
// digits>. Compiled when first needed: at package init it cost every
// launch, with or without cgroup limits, ≈ 10 µs and 9 KB.
var staleName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^omega-run-[0-9]+-[0-9a-f]{8}$`)
})

// lockGroup opens a group's directory and takes a shared flock on it for
// as long as the fd stays open: the mark of a live group, which works
// across pid namespaces, where a pid in the name tells nothing.
func lockGroup(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		return -1, &os.PathError{Op: "flock", Path: dir, Err: err}
	}
	return fd, nil
}

// removeStale removes the groups below parent that an omega-run killed
// before it could clean up left: named as New names them, older than a
// minute, and locked by nobody. The processes still in one are killed
// first, as Delete would have: in rx an omega-run killed with SIGKILL takes
// only the program with it (its parent-death signal), not what the program
// started, which ran on in the group with no one to end it (on cgroup v2
// outside a systemd unit's own cgroup, where stopping the unit does not
// reach it). rmdir refuses a group that still holds groups or processes.
func removeStale(parent string) {
	list, _ := os.ReadDir(parent)
	for _, e := range list {
		if !e.IsDir() || !staleName().MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		var st unix.Stat_t
		if unix.Lstat(dir, &st) != nil || time.Since(time.Unix(st.Ctim.Unix())) < staleAge {
			continue
		}
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) == nil || lockedFromInside(fd, dir) {
			killLeft(dir)
			_ = unix.Rmdir(dir)
		}
		unix.Close(fd)
	}
}

// staleKillWait bounds how long removeStale waits for the processes it
// killed in one group to leave it: a launch must not hang on a group that
// does not empty (a process in uninterruptible sleep).
const staleKillWait = time.Second

// killLeft kills the processes in the stale group dir (and groups below
// it) until none is left or staleKillWait has passed.
func killLeft(dir string) {
	list := func() ([]int, error) { return treeProcs(dir, nil) }
	for end := time.Now().Add(staleKillWait); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		pids, err := list()
		if err != nil || len(pids) == 0 || slices.Contains(pids, os.Getpid()) {
			return
		}
		if killPinned(pids, list) != nil {
			return
		}
	}
}
