//go:build linux && cgo && !omega_goinit

// cinit_oom.c: the OOM killer's choice between PID 1 and the program
// (oomadj_linux.go is the Go init stage's). Under --memory PID 1 is in the
// program's cgroup, whose OOM killer kills the largest process there: PID
// 1 where each of the program's is smaller (on purpose, or the Go PID 1's
// ≈ 7 MB against a shell script's), which ended the whole sandbox and lost
// PID 1's after-run checks (TestPID1SparedByOOM). The program gets
// oom_score_adj PID 1's + 1000 (1000 at most): any process may raise its
// own; lowering it back needs CAP_SYS_RESOURCE, or a write to a /proc,
// which the sandbox's is not.

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cinit_internal.h"

static int oom_fd = -1;
static char oom_orig[16];
static ssize_t oom_orig_len;

// omega_oom_hold opens PID 1's oom_score_adj for writing in a proc
// instance of its own, unmounted at once (the fd keeps it): the sandbox's
// /proc is read-only, and a writable fd on it or on the host's would keep
// the root's read-only remount from happening (EBUSY). Dumpable for the
// open only (its /proc files are then its user's): nothing else runs in
// the namespaces yet. Best effort: the program's score stays PID 1's.
void omega_oom_hold(void) {
	if (oom_fd >= 0 || mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return;
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	int fd = open("/proc/self/oom_score_adj", O_RDWR | O_CLOEXEC);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		omega_dief(errno, "prctl(PR_SET_DUMPABLE)");
	if (umount2("/proc", MNT_DETACH) < 0)
		omega_dief(errno, "umount2(/proc): PID 1's own proc");
	if (fd < 0)
		return;
	oom_orig_len = pread(fd, oom_orig, sizeof oom_orig - 1, 0);
	if (oom_orig_len <= 0) {
		close(fd);
		return;
	}
	oom_orig[oom_orig_len] = 0;
	oom_fd = fd;
}

// omega_oom_raise gives PID 1, and so the program it forks next, the
// program's score.
void omega_oom_raise(void) {
	if (oom_fd < 0)
		return;
	long adj = strtol(oom_orig, NULL, 10) + 1000;
	char buf[16];
	int n = snprintf(buf, sizeof buf, "%ld", adj > 1000 ? 1000 : adj);
	if (pwrite(oom_fd, buf, (size_t)n, 0) < 0)
		omega_oom_restore(); // nothing raised: nothing to put back
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
