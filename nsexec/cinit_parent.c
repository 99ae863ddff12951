//go:build linux && cgo && !omega_goinit

// cinit_parent.c: whether omega-run died while the init stage changed ids
// (parentWatch in creds_linux.go). Changing ids clears the parent-death
// signal; setting it again cannot tell whether the parent died in
// between, and in a new pid namespace getppid() says 0. So the host's
// /proc/self/status is held from before the mounts cover it, and its
// PPid is read again after the signal is set.

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cinit_internal.h"

static int status_fd = -1;
static long first_ppid = -1;

static long read_ppid(void) {
	char buf[1024];
	ssize_t n = pread(status_fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *p = strstr(buf, "\nPPid:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

// omega_watch_parent notes the parent; without a /proc nothing is noted
// and omega_parent_gone says no, as before the watch.
void omega_watch_parent(void) {
	status_fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (status_fd >= 0)
		first_ppid = read_ppid();
}

// omega_parent_gone tells whether this process has been reparented since
// omega_watch_parent, and forgets the watch.
int omega_parent_gone(void) {
	if (status_fd < 0)
		return 0;
	long now = read_ppid();
	close(status_fd);
	status_fd = -1;
	// 0: a reaper this /proc cannot name; -1 (unreadable) tells nothing.
	return first_ppid > 0 && now >= 0 && now != first_ppid;
}
