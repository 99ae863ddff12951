//go:build linux && cgo && !omega_goinit

// cinit_masks.c: the C init stage's masks (masks_linux.go in Go): the
// minimal /dev, the masks over credential stores, and the read-only binds
// with the directories that lead to them pinned.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cinit_internal.h"

// omega_setup_dev replaces /dev with a tmpfs holding only harmless nodes, a new
// devpts instance and a private /dev/shm, as bubblewrap's --dev does.
int omega_setup_dev(void) {
	static const char *nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
	static const char *links[][2] = {{"pts/ptmx", "/dev/ptmx"}, {"/proc/self/fd", "/dev/fd"},
	    {"/proc/self/fd/0", "/dev/stdin"}, {"/proc/self/fd/1", "/dev/stdout"}, {"/proc/self/fd/2", "/dev/stderr"}};
	int fds[6], rc = -1;
	char path[64];
	// Hold the host nodes by fd: the tmpfs is about to cover their paths.
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "/dev/%s", nodes[i]);
		fds[i] = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	}
	if (omega_mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") < 0)
		goto out;
	for (int i = 0; i < 6; i++) {
		if (fds[i] < 0)
			continue; // a host without the node gets none
		snprintf(path, sizeof path, "/dev/%s", nodes[i]);
		if (omega_create_file(path, 0666) < 0) {
			omega_step_fail(errno, "create %s: open %s", path, path);
			goto out;
		}
		// The bind takes over the host /dev's nodev from the read-only root.
		if (omega_bind_fd(fds[i], path, 0) < 0 || omega_set_attr(path, 0, 0, OMEGA_MOUNT_ATTR_NODEV, "dev") < 0)
			goto out;
	}
	if (mkdir("/dev/pts", 0755) < 0) {
		omega_step_fail(errno, "mkdir /dev/pts: mkdir /dev/pts");
		goto out;
	}
	if (omega_mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		goto out;
	if (mkdir("/dev/shm", 0755) < 0) {
		omega_step_fail(errno, "mkdir /dev/shm: mkdir /dev/shm");
		goto out;
	}
	if (omega_mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
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

// omega_hide masks credential stores: a directory becomes an empty read-only
// tmpfs, a file an empty read-only file (bound from one that is unlinked
// again, so nothing shows where it came from). What has disappeared since
// the parent listed it (a host socket whose service stopped) is skipped.
int omega_hide(const struct spec *s) {
	static const char empty[] = "/dev/.omega-run-empty";
	int rc = 0;
	for (uint32_t i = 0; i < s->hide_dirs.n; i++)
		if (omega_mount("tmpfs", s->hide_dirs.v[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		             "size=4k,mode=0755") < 0 &&
		    omega_step_err != ENOENT)
			return -1;
	if (s->hide_files.n == 0)
		return 0;
	if (omega_create_file(empty, 0444) < 0)
		return omega_step_fail(errno, "create %s: open %s", empty, empty);
	for (uint32_t i = 0; i < s->hide_files.n && rc == 0; i++) {
		const char *f = s->hide_files.v[i];
		rc = omega_mount(empty, f, NULL, MS_BIND, NULL);
		if (rc == 0)
			rc = omega_set_attr(f, 0, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY");
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

// self_bind binds canonical path p onto itself (recursively) without
// following symlinks and returns an O_PATH fd of the new mount, 0 when p
// is gone, -1 on failure.
static int self_bind(const char *what, const char *p, int *out) {
	*out = -1;
	int fd = omega_open_nofollow(p);
	if (fd < 0 && errno == ENOENT)
		return 0; // gone since the parent listed it
	if (fd < 0)
		return omega_nofollow_fail(errno, what, p);
	char at[32];
	snprintf(at, sizeof at, "/proc/self/fd/%d", fd);
	int rc = omega_mount(at, at, NULL, MS_BIND | MS_REC, NULL);
	close(fd);
	if (rc < 0) // name the path, not /proc/self/fd/N
		return omega_step_fail(omega_step_err, "%s %s: bind onto itself", what, p);
	if ((*out = omega_open_nofollow(p)) < 0)
		return omega_nofollow_fail(errno, what, p);
	return 0;
}

// omega_read_only_binds pins the directories that lead to the read-only paths
// (a mount point cannot be renamed: .git cannot be moved aside with its
// read-only config and replaced), then makes each path (inside a
// writable root) read-only.
int omega_read_only_binds(const struct spec *s) {
	for (uint32_t i = 0; i < s->pin.n; i++) {
		int fd;
		if (self_bind("pin", s->pin.v[i], &fd) < 0)
			return -1;
		if (fd >= 0)
			close(fd);
	}
	pins = omega_alloc(s->read_only.n, sizeof *pins);
	for (uint32_t i = 0; i < s->read_only.n; i++) {
		const char *p = s->read_only.v[i];
		int fd;
		if (self_bind("read-only", p, &fd) < 0)
			return -1;
		if (fd < 0) // gone: fail rather than leave a path to be created freely
			return omega_step_fail(ENOENT, "read-only %s: gone since omega-run listed it (another process removed it: run again)", p);
		struct stat st;
		int rc = omega_set_attr_fd(fd, p, AT_RECURSIVE, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY");
		if (rc == 0 && fstat(fd, &st) == 0)
			pins[npins++] = (struct pin){p, st.st_dev, st.st_ino};
		close(fd);
		if (rc < 0)
			return -1;
	}
	return 0;
}

// omega_read_only_lost is masks_linux.go's readOnlyLost: it warns about
// each read-only bind that is gone — a host process that replaced or
// removed the file detached it (the kernel allows that from another mount
// namespace), and the program may then have written the new file.
void omega_read_only_lost(void) {
	char msg[4096 + 256];
	int reset = !omega_log_json && isatty(2);
	for (uint32_t i = 0; i < npins; i++) {
		struct stat st;
		if (lstat(pins[i].path, &st) == 0 ? st.st_dev == pins[i].dev && st.st_ino == pins[i].ino
		                                  : errno != ENOENT && errno != ENOTDIR)
			continue; // in place, or out of this user's sight (EACCES after --user)
		snprintf(msg, sizeof msg,
		         "%s was replaced on the host while the sandbox ran, which lifted its read-only bind: the program "
		         "could have changed the new file; check it before anything runs it",
		         pins[i].path);
		if (reset) {
			// The program wrote to this terminal last, and could have
			// left its text unreadable (termsafe.TextReset).
			reset = 0;
			if (write(2, OMEGA_TEXT_RESET, sizeof OMEGA_TEXT_RESET - 1) < 0) {
			}
		}
		omega_warn(msg);
	}
}

// join appends "; HEAD: a, b, c" for list to buf (of size n), cut short
// with "…" where it does not fit.
static void join(char *buf, size_t n, const char *head, const struct strs *list) {
	size_t at = strlen(buf);
	for (uint32_t i = 0; i < list->n && at < n; i++) {
		int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : head, list->v[i]);
		at = w < 0 || (size_t)w >= n - at ? n : at + (size_t)w;
	}
	if (at >= n && n > 4)
		strcpy(buf + n - 4, "…");
}

// omega_unprotected names what a sandbox without its mounts leaves open:
// the masked stores readable, the files kept read-only inside writable
// roots (the config file, .git/config, .envrc, --read-only) writable.
void omega_unprotected(const struct spec *s, char *buf, size_t n) {
	buf[0] = 0; // the writable first: a long list is cut short at the end
	join(buf, n, "; writable, though kept read-only in the sandbox: ", &s->read_only);
	join(buf, n, "; readable: ", &s->hide_dirs);
	join(buf, n, s->hide_dirs.n ? ", " : "; readable: ", &s->hide_files);
}
