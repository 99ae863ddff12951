//go:build linux && cgo && !omega_goinit

// cinit_ucounts.c: the sandbox's share of what the kernel counts per user
// across namespaces (ucounts_linux.go in Go).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cinit_internal.h"

// The host's limit (shown the same from every user namespace) and this
// namespace's own, which the kernel checks at each level: ucounts_linux.go's
// userCounts.
static const char *const counts[][2] = {
	{"/proc/sys/fs/inotify/max_user_instances", "/proc/sys/user/max_inotify_instances"},
	{"/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"},
	{"/proc/sys/fs/fanotify/max_user_groups", "/proc/sys/user/max_fanotify_groups"},
	{"/proc/sys/fs/fanotify/max_user_marks", "/proc/sys/user/max_fanotify_marks"},
};

// read_count reads a sysctl's number: -1 with errno on failure.
static long read_count(const char *path) {
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	int e = errno;
	close(fd);
	if (n <= 0) {
		errno = n < 0 ? e : EINVAL;
		return -1;
	}
	buf[n] = 0;
	char *end;
	long v = strtol(buf, &end, 10);
	if (end == buf || v < 0) {
		errno = EINVAL;
		return -1;
	}
	return v;
}

// omega_cap_user_counts sets this user namespace's limits to half the
// host's (rounded up): the program, whose inotify instances count against
// the caller's uid on the host too, leaves the other half to the user's
// processes outside. A count this kernel does not have is skipped. NULL,
// or what failed.
const char *omega_cap_user_counts(void) {
	static char err[256];
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		long host = read_count(counts[i][0]);
		const char *failed = counts[i][0];
		if (host >= 0) {
			char v[24];
			int len = snprintf(v, sizeof v, "%ld", host - host / 2);
			int fd = open(counts[i][1], O_WRONLY | O_CLOEXEC);
			failed = counts[i][1];
			if (fd >= 0) {
				ssize_t n = write(fd, v, (size_t)len);
				int e = errno;
				close(fd);
				if (n == len)
					continue;
				errno = n < 0 ? e : EIO;
			}
		}
		if (errno == ENOENT)
			continue;
		snprintf(err, sizeof err, "%s: %s", failed, omega_errstr(errno));
		return err;
	}
	return NULL;
}

// omega_user_counts caps the counts where the spec asks (an early start
// did it while waiting: early_err), and says so when that failed.
void omega_user_counts(const struct spec *s, int early, const char *early_err) {
	if (!(s->flags & F_USER_COUNTS))
		return;
	const char *err = early ? early_err : omega_cap_user_counts();
	if (err == NULL)
		return;
	char msg[512];
	snprintf(msg, sizeof msg, "the program may use up your user's inotify and fanotify limits, "
		"which your editors' file watchers outside share (%s)", err);
	omega_warn(msg);
}
