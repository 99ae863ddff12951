//go:build linux

package cgroups

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// locksFile lists the file locks the kernel holds (proc(5)).
var locksFile = "/proc/locks"

// lockedFromInside tells a group (dir, open as fd) whose lock only its
// own processes hold, or processes gone since: the program can open its
// group's directory and flock it as omega-run does (a root program in rx
// keeps the directory's owner's access), and so outlived the cleanup, its
// group looking live for ever (TestRemoveStaleLockedFromInside). A live
// omega-run's lock is held by a process outside the group. /proc/locks
// names the process that took each lock, as this pid namespace sees it,
// and leaves out the locks of processes it does not see: where it shows
// none, or cannot be read, the group counts as live. A taker that is gone
// had passed its fd on (omega-run never does: its fd is close-on-exec).
func lockedFromInside(fd int, dir string) bool {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return false
	}
	takers, err := flockTakers(st.Dev, st.Ino)
	if err != nil || len(takers) == 0 {
		return false
	}
	inside, err := treeProcs(dir, nil)
	if err != nil {
		return false
	}
	for _, pid := range takers {
		if !slices.Contains(inside, pid) && exists(pid) {
			return false
		}
	}
	return true
}

// exists tells whether a process pid is there (a zombie too).
func exists(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || err == unix.EPERM
}

// flockTakers lists the pids that took the flock(2) locks /proc/locks
// shows on the file dev, ino; requests still waiting are left out.
func flockTakers(dev, ino uint64) ([]int, error) {
	f, err := os.Open(locksFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// 1: FLOCK  ADVISORY  READ 11463 00:24:287 0 EOF (major:minor in hex)
	want := strconv.FormatUint(ino, 10)
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue // a POSIX or OFD lock, or a waiting request ("->")
		}
		id := strings.Split(fields[5], ":")
		if len(id) != 3 || id[2] != want {
			continue
		}
		major, err1 := strconv.ParseUint(id[0], 16, 32)
		minor, err2 := strconv.ParseUint(id[1], 16, 32)
		pid, err3 := strconv.Atoi(fields[4])
		if err1 != nil || err2 != nil || err3 != nil || unix.Mkdev(uint32(major), uint32(minor)) != dev {
			continue
		}
		pids = append(pids, pid)
	}
	return pids, sc.Err()
}
