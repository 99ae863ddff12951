//go:build linux && cgo && !omega_goinit

// cinit_oom.c: the OOM killer's choice between PID 1 and the program
// (oomadj_linux.go is the Go init stage's). Under --memory PID 1 is in the
// program's cgroup, whose OOM killer kills the largest process there: PID
// 1 where each of the program's is smaller (on purpose, or the Go PID 1's
// ≈ 7 MB against a shell script's), which ended the whole sandbox and lost
// PID 1's after-run checks (TestPID1SparedByOOM). The program gets
// oom_score_adj PID 1's + 1000 (1000 at most): any process may raise its
// own, and lower it back as far as oom_score_adj_min (which only a writer
// with CAP_SYS_RESOURCE moves) with no capability, as omega_oom_restore
// does: what keeps the program's up is that the write goes through a
// /proc, and the sandbox's is read-only.

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

// The new mount API (Linux 5.2), which some C libraries' headers lack;
// the same numbers on every architecture omega-run builds for.
#define OMEGA_SYS_fsopen 430
#define OMEGA_SYS_fsconfig 431
#define OMEGA_SYS_fsmount 432
#define OMEGA_FSOPEN_CLOEXEC 0x1
#define OMEGA_FSCONFIG_CMD_CREATE 6
#define OMEGA_FSMOUNT_CLOEXEC 0x1
#define OMEGA_MOUNT_ATTR_NOEXEC 0x8

static int oom_fd = -1;
static char oom_orig[16];
static ssize_t oom_orig_len;
// Why oom_fd is -1, for the warning: the step that failed last and its
// errno; without a step, hold never ran (the mount namespace's fallback).
static const char *oom_step;
static int oom_err;

// oom_failed records a failed step of own_proc_open or omega_oom_hold.
static int oom_failed(const char *step) {
	oom_step = step, oom_err = errno;
	return -1;
}

// detached_proc_open opens path in a proc instance of PID 1's own that
// no mount table holds (fsopen, fsmount: never attached, gone with its
// last fd, so nothing to unmount, which cost ≈ 140 µs a launch; closing
// the mount's fd still waits as an unmount does: omega_oom_prehold), or
// -1 on kernels before 5.2 (or under a filter that refuses fsopen).
static int detached_proc_open(const char *path) {
	int fd = -1, fs = (int)syscall(OMEGA_SYS_fsopen, "proc", OMEGA_FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	if (syscall(OMEGA_SYS_fsconfig, fs, OMEGA_FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0) {
		int m = (int)syscall(OMEGA_SYS_fsmount, fs, OMEGA_FSMOUNT_CLOEXEC, OMEGA_MOUNT_ATTR_NOSUID | OMEGA_MOUNT_ATTR_NODEV | OMEGA_MOUNT_ATTR_NOEXEC);
		if (m >= 0) {
			fd = openat(m, path, O_RDWR | O_CLOEXEC);
			close(m);
		}
	}
	close(fs);
	return fd;
}

// own_proc_open opens path in a detached proc instance of PID 1's own
// (detached_proc_open), or, where there is none, in one mounted on /proc
// and unmounted at once.
static int own_proc_open(const char *path) {
	int fd = detached_proc_open(path);
	if (fd >= 0)
		return fd;
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return oom_failed("mount proc on /proc");
	char full[64];
	snprintf(full, sizeof full, "/proc/%s", path);
	if ((fd = open(full, O_RDWR | O_CLOEXEC)) < 0)
		oom_failed("open oom_score_adj");
	if (umount2("/proc", MNT_DETACH) < 0)
		omega_dief(errno, "umount2(/proc): PID 1's own proc");
	return fd;
}

// dumpable_open runs opener with PID 1 dumpable for the open only (its
// /proc files are then its user's): nothing else runs in the namespaces
// yet.
static int dumpable_open(int (*opener)(const char *)) {
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	int fd = opener("self/oom_score_adj");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		omega_dief(errno, "prctl(PR_SET_DUMPABLE)");
	return fd;
}

// early_fd is what omega_oom_prehold opened, for omega_oom_hold to take.
static int early_fd = -1;

// omega_oom_prehold opens, while an early start waits for its spec, the
// fd omega_oom_hold takes after it: closing the detached proc's mount
// waits for an RCU grace period (the kernel's namespace_unlock), 0.16 ms
// median and on a busy machine milliseconds, which lay between the spec
// and the program (bench/PROFILE.md). The detached proc only: the
// fallback mounts on /proc, which waits for the spec's private
// propagation. Quiet: hold tries again and says what failed.
void omega_oom_prehold(void) {
	early_fd = dumpable_open(detached_proc_open);
}

// omega_oom_drop_early closes what omega_oom_prehold opened where the
// launch's mounts did not take it (no PID 1, no fresh /proc).
void omega_oom_drop_early(void) {
	if (early_fd >= 0)
		close(early_fd);
	early_fd = -1;
}

// omega_oom_hold opens PID 1's oom_score_adj for writing in a proc
// instance of its own (own_proc_open), or takes the fd omega_oom_prehold
// opened: the sandbox's /proc is read-only, and a writable fd on it or on
// the host's would keep the root's read-only remount from happening
// (EBUSY). Best effort: the program's score stays PID 1's, which
// omega_oom_raise says.
void omega_oom_hold(void) {
	if (oom_fd >= 0)
		return;
	int fd = early_fd >= 0 ? early_fd : dumpable_open(own_proc_open);
	early_fd = -1;
	if (fd < 0)
		return;
	oom_orig_len = pread(fd, oom_orig, sizeof oom_orig - 1, 0);
	if (oom_orig_len <= 0) {
		oom_failed("read oom_score_adj");
		close(fd);
		return;
	}
	oom_orig[oom_orig_len] = 0;
	oom_fd = fd;
}

// UNRAISED and NO_OWN_PROC are oomadj_linux.go's unraisedWarning and
// noOwnProc.
#define UNRAISED                                                                                               \
	"the program's OOM score could not be raised above PID 1's (%s): the OOM killer (of its --memory cgroup, " \
	"or the host's) may kill PID 1, and the whole sandbox with it, before the program's processes"
#define NO_OWN_PROC "no proc of PID 1's own: the mount namespace is unusable"

// warn_unraised says that the program keeps PID 1's score (oomadj_linux.go's
// unraisedWarning): README promises it a higher one, with or without
// --memory.
static void warn_unraised(void) {
	char why[128], msg[512];
	if (oom_step)
		snprintf(why, sizeof why, "%s: %s", oom_step, omega_errstr(oom_err));
	else
		snprintf(why, sizeof why, "%s", NO_OWN_PROC);
	snprintf(msg, sizeof msg, UNRAISED, why);
	omega_warn(msg);
}

// omega_oom_unheld tells that hold kept no fd: omega_oom_raise will say
// that the program keeps PID 1's score.
int omega_oom_unheld(void) {
	return oom_fd < 0;
}

// omega_oom_raise gives PID 1, and so the program it forks next, the
// program's score, or says why it cannot (once: it runs once a launch).
void omega_oom_raise(void) {
	if (oom_fd < 0) {
		warn_unraised();
		return;
	}
	long adj = strtol(oom_orig, NULL, 10) + 1000;
	char buf[16];
	int n = snprintf(buf, sizeof buf, "%ld", adj > 1000 ? 1000 : adj);
	if (pwrite(oom_fd, buf, (size_t)n, 0) < 0) {
		oom_failed("write oom_score_adj");
		omega_oom_restore(); // nothing raised: nothing to put back
		warn_unraised();
	}
}

// omega_oom_restore puts PID 1's own score back once the program is
// forked (down to where it was: no capability needed) and closes the fd.
void omega_oom_restore(void) {
	if (oom_fd < 0)
		return;
	// Should it fail, PID 1 keeps the program's score: as before.
	if (pwrite(oom_fd, oom_orig, (size_t)oom_orig_len, 0) < 0)
		oom_orig_len = 0;
	close(oom_fd);
	oom_fd = -1;
}
