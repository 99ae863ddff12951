//go:build linux && cgo && !omega_goinit

// cinit_mounts.c: the C init stage's mounts (mounts_linux.go and
// masks_linux.go in Go): the host root made read-only but for the
// writable roots, a fresh /run, /proc, a minimal /dev, the masks over
// credential stores and the read-only binds.

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

// System call numbers and structures newer than some C libraries' headers.
// These numbers are the same on every architecture omega-run builds for.
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#define OMEGA_MOUNT_ATTR_RDONLY 0x1

struct omega_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

// ----------------------------------------------------------------- files

// mkdir_all is Go's os.MkdirAll: an existing directory is fine, the
// parents are created first. It cuts p at each slash in turn and puts the
// slash back. On failure omega_step_msg names the path.
static int mkdir_all_in(char *p, mode_t mode) {
	struct stat st;
	if (stat(p, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : omega_step_fail(ENOTDIR, "mkdir %s", p);
	size_t i = strlen(p);
	while (i > 0 && p[i - 1] == '/')
		i--;
	while (i > 0 && p[i - 1] != '/')
		i--;
	if (i > 1) {
		p[i - 1] = 0;
		int rc = mkdir_all_in(p, mode);
		p[i - 1] = '/';
		if (rc < 0)
			return -1;
	}
	if (mkdir(p, mode) < 0) {
		int e = errno;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
		return omega_step_fail(e, "mkdir %s", p);
	}
	return 0;
}

static int mkdir_all(const char *path, mode_t mode) {
	char *p = strdup(path);
	if (!p)
		return omega_step_fail(ENOMEM, "mkdir %s", path);
	int rc = mkdir_all_in(p, mode);
	free(p);
	return rc;
}

// create_file is Go's os.WriteFile(path, nil, mode).
static int create_file(const char *path, mode_t mode) {
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

// ---------------------------------------------------------------- mounts

static int do_mount(const char *src, const char *dst, const char *fstype, unsigned long flags, const char *data) {
	if (mount(src, dst, fstype, flags, data) < 0)
		return omega_step_fail(errno, "mount %s on %s", src, dst);
	return 0;
}

static int bind_fd(int fd, const char *dst, unsigned long flags) {
	char src[32];
	snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
	return do_mount(src, dst, NULL, MS_BIND | flags, NULL);
}

// set_attr is mount_setattr(2) on path; how names the change in errors.
static int set_attr(const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how) {
	struct omega_mount_attr a = {.attr_set = set, .attr_clr = clr};
	if (syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof a) < 0)
		return omega_step_fail(errno, "mount_setattr(%s, %s)", path, how);
	return 0;
}

// held is a host path kept open (O_PATH) across the mounts that cover it.
struct held {
	const char *path;
	int fd, dir;
};

// hold opens every path that still exists; gone ones are skipped.
static int hold(const struct strs *paths, struct held *out) {
	int n = 0;
	for (uint32_t i = 0; i < paths->n; i++) {
		struct stat st;
		int fd = open(paths->v[i], O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0) {
			int e = errno;
			close(fd);
			return omega_step_fail(e, "fstat %s", paths->v[i]);
		}
		out[n++] = (struct held){paths->v[i], fd, S_ISDIR(st.st_mode)};
	}
	return n;
}

static void release(struct held *h, int n) {
	for (int i = 0; i < n; i++)
		close(h[i].fd);
}

// target_of maps a bind source back to where it appears inside.
static const char *target_of(const struct spec *s, const char *src) {
	return s->tmp_from[0] && strcmp(src, s->tmp_from) == 0 ? "/tmp" : src;
}

// read_only_root makes every mount read-only except the writable roots,
// held by fd first because the private /tmp may cover one; /tmp is bound
// first so that roots below it land on top of the private one.
static int read_only_root(const struct spec *s) {
	struct strs src = {s->writable.n, omega_alloc(s->writable.n, sizeof(char *))};
	struct held *h = omega_alloc(s->writable.n, sizeof *h);
	for (uint32_t i = 0; i < src.n; i++)
		src.v[i] = strcmp(s->writable.v[i], "/tmp") == 0 && s->tmp_from[0] ? s->tmp_from : s->writable.v[i];
	int n = hold(&src, h), rc = -1;
	if (n < 0)
		return -1;
	for (int i = 1; i < n; i++) { // stable insertion sort by target length
		struct held x = h[i];
		int j = i;
		for (; j > 0 && strlen(target_of(s, h[j - 1].path)) > strlen(target_of(s, x.path)); j--)
			h[j] = h[j - 1];
		h[j] = x;
	}
	for (int i = 0; i < n; i++) {
		const char *t = target_of(s, h[i].path);
		if (mkdir_all(t, 0700) < 0) {
			char inner[sizeof omega_step_msg];
			snprintf(inner, sizeof inner, "%s", omega_step_msg);
			omega_step_fail(omega_step_err, "mount point %s: %s", t, inner);
			goto out;
		}
		if (bind_fd(h[i].fd, t, MS_REC) < 0)
			goto out;
	}
	if (set_attr("/", AT_RECURSIVE, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY") < 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (set_attr(target_of(s, h[i].path), 0, 0, OMEGA_MOUNT_ATTR_RDONLY, "rw") < 0)
			goto out;
	rc = 0;
out:
	release(h, n);
	return rc;
}

// fresh_run hides the host's service sockets behind an empty /run (and
// /var/run where that is a directory rather than the usual symlink).
static int fresh_run(const struct spec *s) {
	static const char *dirs[] = {"/run", "/var/run"};
	if (!(s->flags & F_FRESH_RUN))
		return 0;
	for (int i = 0; i < 2; i++) {
		struct stat st;
		if (lstat(dirs[i], &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (do_mount("tmpfs", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") < 0)
			return -1;
	}
	return 0;
}

// mount_point creates path's missing directories and the path itself (an
// empty file, or a directory) without following any symlink, and returns
// an O_PATH fd of it to mount onto: the private /tmp persists between
// runs, and a symlink a program left there must not redirect a bind.
// path is canonical (the parent resolved it on the host).
static int mount_point(const char *path, int dir) {
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (char *name = buf + 1, *end; fd >= 0 && *name; name = end) {
		end = strchr(name, '/');
		int last = !end;
		if (end)
			*end++ = 0;
		else
			end = name + strlen(name);
		if (!last || dir) {
			if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST) {
				close(fd);
				return omega_step_fail(errno, "mkdir %s", path);
			}
		} else {
			int f = openat(fd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (f >= 0)
				close(f);
			else if (errno != EEXIST) {
				close(fd);
				return omega_step_fail(errno, "create %s", path);
			}
		}
		int next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), e = errno;
		close(fd);
		struct stat st;
		if (next < 0)
			return omega_step_fail(e, "open %s", path);
		if (fstat(next, &st) < 0) {
			e = errno;
			close(next);
			return omega_step_fail(e, "fstat %s", path);
		}
		if (S_ISLNK(st.st_mode) || (!last || dir) != !!S_ISDIR(st.st_mode)) {
			close(next);
			return omega_step_fail(S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR,
			                       "a symlink or another kind of file is in the way at %s (left by an earlier run?)", name);
		}
		fd = next;
	}
	return fd;
}

// rebind puts each held path back at its place in the new /run or /tmp.
static int rebind(struct held *h, int n) {
	for (int i = 0; i < n; i++) {
		int at = mount_point(h[i].path, h[i].dir);
		if (at < 0) {
			char inner[sizeof omega_step_msg];
			snprintf(inner, sizeof inner, "%s", omega_step_msg);
			return omega_step_fail(omega_step_err, "keep %s: %s", h[i].path, inner);
		}
		char dst[32];
		snprintf(dst, sizeof dst, "/proc/self/fd/%d", at);
		int rc = bind_fd(h[i].fd, dst, 0);
		close(at);
		if (rc < 0)
			return -1;
	}
	return 0;
}

// setup_dev replaces /dev with a tmpfs holding only harmless nodes, a new
// devpts instance and a private /dev/shm, as bubblewrap's --dev does.
static int setup_dev(void) {
	static const char *nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
	static const char *links[][2] = {{"pts/ptmx", "/dev/ptmx"}, {"/proc/self/fd", "/dev/fd"},
	    {"/proc/self/fd/0", "/dev/stdin"}, {"/proc/self/fd/1", "/dev/stdout"}, {"/proc/self/fd/2", "/dev/stderr"}};
	int fds[6], rc = -1;
	char path[64];
	// Hold the host nodes by fd: the tmpfs is about to cover their paths.
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "/dev/%s", nodes[i]);
		fds[i] = open(path, O_PATH | O_CLOEXEC);
	}
	if (do_mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
		goto out;
	for (int i = 0; i < 6; i++) {
		if (fds[i] < 0)
			continue; // a host without the node gets none
		snprintf(path, sizeof path, "/dev/%s", nodes[i]);
		if (create_file(path, 0666) < 0) {
			omega_step_fail(errno, "create %s: open %s", path, path);
			goto out;
		}
		if (bind_fd(fds[i], path, 0) < 0)
			goto out;
	}
	if (mkdir("/dev/pts", 0755) < 0) {
		omega_step_fail(errno, "mkdir /dev/pts: mkdir /dev/pts");
		goto out;
	}
	if (do_mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		goto out;
	if (mkdir("/dev/shm", 0755) < 0) {
		omega_step_fail(errno, "mkdir /dev/shm: mkdir /dev/shm");
		goto out;
	}
	if (do_mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
		goto out;
	for (int i = 0; i < 5; i++) {
		if (symlink(links[i][0], links[i][1]) < 0) {
			omega_step_fail(errno, "symlink %s: symlink %s %s", links[i][1], links[i][0], links[i][1]);
			goto out;
		}
	}
	rc = 0;
out:
	for (int i = 0; i < 6; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}

// hide masks credential stores: a directory becomes an empty read-only
// tmpfs, a file an empty read-only file (bound from one that is unlinked
// again, so nothing shows where it came from). What has disappeared since
// the parent listed it (a host socket whose service stopped) is skipped.
static int hide(const struct spec *s) {
	static const char empty[] = "/dev/.omega-run-empty";
	int rc = 0;
	for (uint32_t i = 0; i < s->hide_dirs.n; i++)
		if (do_mount("tmpfs", s->hide_dirs.v[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		             "size=4k,mode=0755") < 0 &&
		    omega_step_err != ENOENT)
			return -1;
	if (s->hide_files.n == 0)
		return 0;
	if (create_file(empty, 0444) < 0)
		return omega_step_fail(errno, "create %s: open %s", empty, empty);
	for (uint32_t i = 0; i < s->hide_files.n && rc == 0; i++) {
		const char *f = s->hide_files.v[i];
		rc = do_mount(empty, f, NULL, MS_BIND, NULL);
		if (rc == 0)
			rc = set_attr(f, 0, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY");
		else if (omega_step_err == ENOENT)
			rc = 0; // gone since the parent listed it: nothing to hide
	}
	unlink(empty);
	return rc;
}

// What each read-only bind pins, for omega_read_only_lost.
static struct pin {
	const char *path;
	dev_t dev;
	ino_t ino;
} *pins;
static uint32_t npins;

// read_only_binds makes each path (inside a writable root) read-only.
static int read_only_binds(const struct spec *s) {
	pins = omega_alloc(s->read_only.n, sizeof *pins);
	for (uint32_t i = 0; i < s->read_only.n; i++) {
		const char *p = s->read_only.v[i];
		if (do_mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0)
			return -1;
		if (set_attr(p, AT_RECURSIVE, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY") < 0)
			return -1;
		struct stat st;
		if (stat(p, &st) == 0)
			pins[npins++] = (struct pin){p, st.st_dev, st.st_ino};
	}
	return 0;
}

// omega_read_only_lost is masks_linux.go's readOnlyLost: it warns about
// each read-only bind that is gone — a host process that replaced or
// removed the file detached it (the kernel allows that from another mount
// namespace), and the program may then have written the new file.
void omega_read_only_lost(void) {
	char msg[4096 + 256];
	for (uint32_t i = 0; i < npins; i++) {
		struct stat st;
		if (stat(pins[i].path, &st) == 0 && st.st_dev == pins[i].dev && st.st_ino == pins[i].ino)
			continue;
		snprintf(msg, sizeof msg,
		         "%s was replaced on the host while the sandbox ran, which lifted its read-only bind: the program "
		         "could have changed the new file; check it before anything runs it",
		         pins[i].path);
		omega_warn(msg);
	}
}

// omega_setup_mounts is mounts_linux.go's setupMounts: the host root stays the
// root; paths to keep are held by fd before anything covers them, the
// root goes read-only before /proc and /dev are mounted on it, and masks
// come last so nothing mounts over them.
int omega_setup_mounts(const struct spec *s) {
	// Nothing mounted here may propagate back to the host.
	if (do_mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	struct held *kept = omega_alloc(s->keep.n, sizeof *kept);
	int n = hold(&s->keep, kept), rc = -1;
	if (n < 0)
		return -1;
	if (read_only_root(s) == 0 && fresh_run(s) == 0 && rebind(kept, n) == 0 &&
	    do_mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0 &&
	    setup_dev() == 0 && hide(s) == 0 && read_only_binds(s) == 0)
		rc = 0;
	release(kept, n);
	return rc;
}
