package sandbox

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// launchHolds lists the holders of the state lock f when they are all processes
// confined no more than this launcher: another launch copying a state of
// hundreds of MB in or back, worth waiting for, where a confined program
// holding it (no_new_privs, a seccomp filter more) may hold it for good.
// /proc/locks names each lock's taker as this pid namespace sees it; a
// taker it does not show, or whose status cannot be read, is not waited
// for (nil).
func launchHolds(f *os.File) []int {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return nil
	}
	var takers []int
	for _, pid := range lockTakers(lockDevs(int(f.Fd()), st.Dev), st.Ino) {
		if locksFile(pid, &st) {
			takers = append(takers, pid)
		}
	}
	own, ok := confinement("self")
	for _, pid := range takers {
		c, cok := confinement(strconv.Itoa(pid))
		if !ok || !cok || c.noNewPrivs > own.noNewPrivs || c.filters > own.filters {
			return nil
		}
	}
	return takers
}

// lockDevs lists the device numbers /proc/locks may give the file open at
// fd, whose stat says dev: that one, and its file system's, which
// /proc/locks names and mountinfo shows. They differ on btrfs, whose stat
// gives each subvolume a device number of its own: matched by dev alone,
// no launch's lock was ever found there, and none waited for.
func lockDevs(fd int, dev uint64) []uint64 {
	devs := []uint64{dev}
	var sx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &sx) != nil || sx.Mask&unix.STATX_MNT_ID == 0 {
		return devs
	}
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return devs
	}
	id := strconv.FormatUint(sx.Mnt_id, 10)
	// 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != id {
			continue
		}
		major, minor, _ := strings.Cut(f[2], ":")
		ma, err1 := strconv.ParseUint(major, 10, 32)
		mi, err2 := strconv.ParseUint(minor, 10, 32)
		if err1 == nil && err2 == nil {
			devs = append(devs, unix.Mkdev(uint32(ma), uint32(mi)))
		}
		break
	}
	return devs
}

// lockTakers lists the pids that hold flock(2) locks on the file ino on
// one of devs (requests still waiting, "->", are left out).
func lockTakers(devs []uint64, ino uint64) []int {
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return nil
	}
	// 1: FLOCK  ADVISORY  WRITE 11463 00:24:287 0 EOF (major:minor in hex)
	var pids []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" {
			continue
		}
		id := strings.Split(f[5], ":")
		if len(id) != 3 || id[2] != strconv.FormatUint(ino, 10) {
			continue
		}
		major, err1 := strconv.ParseUint(id[0], 16, 32)
		minor, err2 := strconv.ParseUint(id[1], 16, 32)
		pid, err3 := strconv.Atoi(f[4])
		if err1 == nil && err2 == nil && err3 == nil && pid > 0 && slices.Contains(devs, unix.Mkdev(uint32(major), uint32(minor))) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// locksFile tells whether pid holds a flock(2) lock on the file st (dev
// and inode as stat gives them) through one of its fds, or may (its fds
// cannot be read). /proc/locks names the file system's device, which
// btrfs subvolumes share, and their inode numbers collide: a lock on
// another subvolume's directory of the same number was taken for this
// one's. An fd's stat tells the subvolume, and its fdinfo the locks that
// open file holds (since Linux 4.x; not just any fd to the file, such as
// the waiter's own).
func locksFile(pid int, st *unix.Stat_t) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	fds, err := os.ReadDir(dir + "/fd")
	if err != nil {
		return true
	}
	for _, fd := range fds {
		var fst unix.Stat_t
		if unix.Stat(dir+"/fd/"+fd.Name(), &fst) != nil || fst.Dev != st.Dev || fst.Ino != st.Ino {
			continue
		}
		info, err := os.ReadFile(dir + "/fdinfo/" + fd.Name())
		if err != nil {
			return true
		}
		// lock:	1: FLOCK  ADVISORY  WRITE 11463 00:24:287 0 EOF
		for line := range strings.Lines(string(info)) {
			if strings.HasPrefix(line, "lock:") && strings.Contains(line, " FLOCK ") && !strings.Contains(line, "->") {
				return true
			}
		}
	}
	return false
}

// confined is what /proc/PID/status says of a process's confinement.
type confined struct{ noNewPrivs, filters int }

// confinement reads it for pid ("self" for this process); ok false when
// the status or either field cannot be read.
func confinement(pid string) (c confined, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return c, false
	}
	var seen int
	for line := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case err != nil:
		case k == "NoNewPrivs":
			c.noNewPrivs, seen = n, seen+1
		case k == "Seccomp_filters":
			c.filters, seen = n, seen+1
		}
	}
	return c, seen == 2
}
