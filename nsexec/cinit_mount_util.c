//go:build linux && cgo && !omega_goinit

// cinit_mount_util.c: the mount helpers cinit_mounts.c and cinit_masks.c
// use: mount and mount_setattr with the step's error, and opening a
// canonical path without following any symlink.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

// ----------------------------------------------------------------- files

// omega_create_file is Go's os.WriteFile(path, nil, mode).
int omega_create_file(const char *path, mode_t mode) {
	int fd = openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

// ---------------------------------------------------------------- mounts

int omega_mount(const char *src, const char *dst, const char *fstype, unsigned long flags, const char *data) {
	if (mount(src, dst, fstype, flags, data) < 0)
		return omega_step_fail(errno, "mount %s on %s", src, dst);
	return 0;
}

int omega_bind_fd(int fd, const char *dst, unsigned long flags) {
	char src[32];
	snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
	return omega_mount(src, dst, NULL, MS_BIND | flags, NULL);
}

// omega_bind_failed words a failed omega_bind_fd of a held path by the
// path (what: bind, keep): the mount call's own words name only
// /proc/self/fd/N.
int omega_bind_failed(const char *what, const char *path) {
	char inner[sizeof omega_step_msg];
	snprintf(inner, sizeof inner, "%s", omega_step_msg);
	return omega_step_fail(omega_step_err, "%s %s: %s", what, path, inner);
}

// omega_set_attr is mount_setattr(2) on canonical path; how names the
// change in errors. A kernel without it (before 5.12) remounts.
int omega_set_attr(const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how) {
	struct omega_mount_attr a = {.attr_set = set, .attr_clr = clr};
	if (syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof a) == 0)
		return 0;
	if (errno == ENOSYS)
		return omega_remount(-1, path, flags, set, clr, how);
	return omega_step_fail(errno, "mount_setattr(%s, %s)", path, how);
}

// omega_set_attr_fd is set_attr on what fd refers to.
int omega_set_attr_fd(int fd, const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how) {
	struct omega_mount_attr a = {.attr_set = set, .attr_clr = clr};
	if (syscall(SYS_mount_setattr, fd, "", flags | AT_EMPTY_PATH, &a, sizeof a) == 0)
		return 0;
	if (errno == ENOSYS)
		return omega_remount(fd, path, flags, set, clr, how);
	return omega_step_fail(errno, "mount_setattr(%s, %s)", path, how);
}

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

// omega_open_existing is one openat2(RESOLVE_NO_SYMLINKS) of a canonical
// path (O_PATH): what the walk of omega_open_nofollow does in three system
// calls per component (≈ 280 calls of a launch's mount step; without them
// it takes 0.56 ms instead of 0.80, bench/PROFILE.md). -1 on any failure — a kernel before 5.6, a filter around
// omega-run, a missing path, a symlink — and the callers' walks then
// decide, with their own errors. Paths that are not canonical ("//", a
// trailing "/"), which the walks refuse, are left to them too.
int omega_open_existing(const char *path) {
	size_t n = strlen(path);
	if (path[0] != '/' || strstr(path, "//") || (n > 1 && path[n - 1] == '/'))
		return -1;
	struct {
		uint64_t flags, mode, resolve;
	} how = {O_PATH | O_CLOEXEC, 0, 0x04 /* RESOLVE_NO_SYMLINKS, which implies NO_MAGICLINKS */};
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
	// 0-2 are open here (cinit_early.c, the Go runtime): a result there is
	// a filter answering openat2 with errno 0, not a file.
	return fd > 2 ? fd : -1;
}

// omega_open_nofollow opens a canonical path (O_PATH) without following any
// symlink on the way: the parent resolved every path it sends, so a
// symlink found now appeared since — in a directory a confined program
// can write — and must not redirect a mount. errno is ELOOP then.
int omega_open_nofollow(const char *path) {
	int fd = omega_open_existing(path);
	if (fd >= 0)
		return fd;
	// A copy to cut, of any length: a mount point mountinfo lists can be
	// longer than PATH_MAX, which only a path as a whole is held to.
	char *buf = strdup(path);
	if (buf == NULL)
		return -1;
	// openat, not open: musl's open adds an fcntl(F_SETFD) for O_CLOEXEC.
	fd = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (char *name = buf + 1, *end; fd >= 0 && *name; name = end) {
		end = strchr(name, '/');
		if (end)
			*end++ = 0;
		else
			end = name + strlen(name);
		int next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), e = errno;
		close(fd);
		struct stat st;
		if (next >= 0 && fstat(next, &st) == 0 && S_ISLNK(st.st_mode)) {
			close(next);
			next = -1, e = ELOOP;
		}
		errno = e;
		fd = next;
	}
	int e = errno;
	free(buf);
	errno = e;
	return fd;
}

// omega_nofollow_fail reports a path that omega_open_nofollow refused.
int omega_nofollow_fail(int e, const char *what, const char *path) {
	if (e == ELOOP)
		return omega_step_fail(e, "%s %s: a symlink appeared on its path after omega-run checked it (a confined program may have made it)", what, path);
	return omega_step_fail(e, "%s %s: open", what, path);
}

// within is whether path is dir or below it.
static int within(const char *path, const char *dir) {
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

// omega_private_tree tells a working directory in a tree the sandbox replaces
// with its own (the private /tmp, the fresh /run and a /var/run
// directory, /dev/shm, /dev, /proc): 2 for the tree itself, 1 below it,
// else 0.
// The host's sockets there are not masked, so a program left in the
// host's directory would reach those below it by relative paths (a
// datagram: the broker sees only connect; the launcher keeps a
// directory below /tmp or /run in the sandbox instead where it can:
// sandbox/keepwd_linux.go), and in the host's /proc every host process.
// hiddenwd_linux.go's privateTree.
int omega_private_tree(const struct spec *s, const char *wd) {
	const char *run = (s->flags & F_FRESH_RUN) ? "/run" : NULL, *var_run = run ? "/var/run" : NULL;
	const char *trees[] = {s->tmp_from[0] ? "/tmp" : NULL, run, var_run, "/dev/shm", "/dev", "/proc"};
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
		if (trees[i] && within(wd, trees[i]))
			return strcmp(wd, trees[i]) == 0 ? 2 : 1;
	return 0;
}
