//go:build linux && cgo && !omega_goinit

// cinit_fds.c: marking and closing the fds an init stage must not pass
// on, with close_range where the kernel has it and /proc/self/fd where not.

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

// System call numbers and structures newer than some C libraries' headers.
// These numbers are the same on every architecture omega-run builds for.
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#define OMEGA_CLOSE_RANGE_CLOEXEC (1U << 2)

// each_fd_from calls f on every open fd from first on, except the nkeep
// in keep, read
// from /proc/self/fd: close_range for kernels without it (before 5.9) or
// without its CLOEXEC flag (before 5.11), or where a filter refuses it.
static void each_fd_from(unsigned first, const int *keep, int nkeep, int (*f)(int)) {
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		omega_dief(errno, "close_range fallback: /proc/self/fd");
	int self = dirfd(d), n = 0, cap = 64, *fds = omega_alloc(cap, sizeof *fds);
	for (struct dirent *e; (e = readdir(d));) {
		int fd = atoi(e->d_name);
		int kept = 0;
		for (int i = 0; i < nkeep; i++)
			kept |= fd == keep[i];
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd < (int)first || kept || fd == self)
			continue;
		if (n == cap)
			fds = realloc(fds, (cap *= 2) * sizeof *fds);
		if (!fds)
			omega_die(125, "close_range fallback: out of memory");
		fds[n++] = fd;
	}
	closedir(d);
	for (int i = 0; i < n; i++)
		if (f(fds[i]) < 0 && errno != EBADF)
			omega_dief(errno, "close_range fallback: fd %d", fds[i]);
	free(fds);
}

static int cloexec(int fd) {
	int fl = fcntl(fd, F_GETFD);
	return fl < 0 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

// omega_set_cloexec_from marks every fd from first on close-on-exec: the spec
// and anything the caller leaked must not reach the program.
void omega_set_cloexec_from(unsigned first) {
	if (syscall(SYS_close_range, first, ~0U, OMEGA_CLOSE_RANGE_CLOEXEC) < 0)
		each_fd_from(first, NULL, 0, cloexec);
}

static int by_number(const void *a, const void *b) {
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

// omega_close_from closes every fd from first on, except the n in keep
// (-1: none), which it sorts.
void omega_close_from(unsigned first, int *keep, int n) {
	qsort(keep, (size_t)n, sizeof *keep, by_number);
	unsigned from = first;
	int failed = 0;
	for (int i = 0; i < n && !failed; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from && syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0) < 0)
			failed = 1;
		from = (unsigned)keep[i] + 1;
	}
	if (failed || syscall(SYS_close_range, from, ~0U, 0) < 0)
		each_fd_from(first, keep, n, close);
}

// omega_refuse_changed_cmd is appended_linux.go's refuseChangedCmd: an fd
// inherited where the launcher's ExtraFiles ended was appended to them by
// an embedder, and the program would not get it; a spec for PID 1 of new
// namespaces in a process that is not PID 1 lost them with a replaced
// cmd.SysProcAttr, and the mounts would be made in the caller's own mount
// namespace.
void omega_refuse_changed_cmd(const struct spec *s) {
	int fd = SPEC_FD + 1 + (int)s->keep_fds + ((s->flags & F_GO_AHEAD) ? 1 : 0);
	int fl = fcntl(fd, F_GETFD);
	if ((s->flags & F_REFUSE_APPENDED) && fl >= 0 && !(fl & FD_CLOEXEC))
		omega_die(125, "fd %d: %s", fd, OMEGA_APPENDED_HINT);
	if ((s->flags & F_PID1) && getpid() != 1)
		omega_die(125, "%s", OMEGA_NO_NAMESPACES_HINT);
}
