//go:build linux && cgo && !omega_goinit

// cinit_hiddenwd.c: refusing a working directory inside a directory the
// sandbox hides (hiddenwd_linux.go in Go), before the mounts, and going
// back to it, or saying why not, after them.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cinit_internal.h"

// omega_getwd_go is Go's os.Getwd: $PWD when it names the current directory.
char *omega_getwd_go(void) {
	static char buf[4096];
	const char *pwd = getenv("PWD");
	struct stat a, b;
	if (pwd && pwd[0] == '/' && strlen(pwd) < sizeof buf && stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return strcpy(buf, pwd);
	if (!getcwd(buf, sizeof buf))
		buf[0] = 0;
	return buf;
}

// hidden_wd_by_path is omega_refuse_hidden_wd where the walk up meets a
// directory the user may not search (sudo -u from a 0700 home): the
// kernel's path of the working directory, which getcwd gives without
// permissions, against each hidden directory's real path. An error when
// it cannot tell.
static int hidden_wd_by_path(const struct spec *s) {
	char real[4096];
	if (!getcwd(real, sizeof real))
		return errno;
	if (real[0] != '/')
		return EACCES; // "(unreachable)": not in this tree
	for (uint32_t i = 0; i < s->hide_dirs.n; i++) {
		char *h = realpath(s->hide_dirs.v[i], NULL);
		if (!h)
			continue; // absent: nothing to hide there
		size_t n = strlen(h);
		int in = strncmp(real, h, n) == 0 && (real[n] == 0 || real[n] == '/' || n == 1);
		free(h);
		if (in)
			omega_die(125, "working directory %s is inside a directory the sandbox hides: run from another directory", real);
	}
	return 0;
}

// omega_refuse_hidden_wd: a working directory at or below a directory the
// sandbox hides would be kept, unseen by path but open, and read through
// (a cd through a symlink into ~/.ssh, a home reached through a link, an
// embedder's cmd.Dir). Compared by identity, so that no name for it
// ($PWD, a symlinked home, a path longer than getcwd takes) gets past:
// each hidden directory as its path resolves now (the mask lands on the
// target of a link) against the working directory and each one above it.
void omega_refuse_hidden_wd(const struct spec *s) {
	uint32_t n = s->hide_dirs.n, have = 0;
	struct stat *hid = omega_alloc(n ? n : 1, sizeof *hid);
	for (uint32_t i = 0; i < n; i++)
		if (stat(s->hide_dirs.v[i], &hid[have]) == 0 && S_ISDIR(hid[have].st_mode))
			have++;
	if (!have) {
		free(hid);
		return;
	}
	// Up to the root, where .. is the directory itself; a walk that stops
	// short could not tell, and refuses; but ENOENT (the directory moved
	// out of a bind-mounted subtree) leaves it in no tree the program
	// could climb either.
	struct stat st, up;
	int fd = openat(AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC), e = 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		e = errno;
	while (!e) {
		for (uint32_t i = 0; i < have; i++)
			if (hid[i].st_dev == st.st_dev && hid[i].st_ino == st.st_ino)
				omega_die(125, "working directory %s is inside a directory the sandbox hides: run from another directory",
				          omega_getwd_go());
		int parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up) < 0) {
			e = errno;
			if (parent >= 0)
				close(parent);
			break;
		}
		close(fd);
		fd = parent;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break; // the root
		st = up;
	}
	if (fd >= 0)
		close(fd);
	free(hid);
	if (e == EACCES)
		e = hidden_wd_by_path(s); // a parent the user may not search: no store beyond it
	if (e && e != ENOENT)
		omega_die(125, "working directory %s: cannot tell whether it is inside a directory the sandbox hides (%s): "
		          "run from another directory", omega_getwd_go(), omega_errstr(e));
}

// TMP_WD_HINT says why a working directory in the host's /tmp is not
// there, and what brings it in (entermounts_linux.go's tmpWorkdirHint);
// not for /tmp itself, which no grant brings in.
#define TMP_WD_HINT " (the sandbox's /tmp is its own: --allow-write . brings this directory into it)"

// omega_back_to_wd goes back to the working directory wd (oldwd: an fd of
// it from before the mounts; rc: omega_setup_mounts's) once the mounts
// are in place, or, where the path leads elsewhere there, says so and
// stays or starts where the program reaches nothing of the host's; in a
// tree the sandbox replaces, in the sandbox's own, saying nothing (the
// launcher says it on a terminal: hiddenwd_linux.go's workdirGone). It
// returns 0, or the errno (EXDEV: another directory) that kept it out.
int omega_back_to_wd(struct spec *s, const char *wd, int oldwd, int rc) {
	// The cwd still points into the mount tree from before the binds;
	// look the same path up again so it lands on the new mounts — if
	// it is the same directory there: under the private /tmp the path
	// names another one (an empty one an earlier run left, say).
	struct stat before, after;
	char msg[8192];
	int e = chdir(wd) < 0 ? errno : 0;
	if (!e && (fstat(oldwd, &before) < 0 || stat(".", &after) < 0 || before.st_dev != after.st_dev ||
	           before.st_ino != after.st_ino))
		e = EXDEV;
	if (e) {
		if (oldwd >= 0 && fchdir(oldwd) < 0)
			omega_dief(errno, "fchdir back to %s", wd);
		// Read-only, as every mount is now: but a mount that no path
		// reached (covered on the host) stays as it was where the kernel
		// has no mount_setattr, and the program must not start in it;
		// nor in the host's /tmp, /run, /dev or /proc, whose sockets and
		// processes are in reach there (omega_private_tree).
		struct statvfs vfs;
		int rw = rc >= 0 && fstatvfs(oldwd, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY);
		int priv = rc >= 0 ? omega_private_tree(s, wd) : 0;
		const char *start = rw ? "starting in / (its mount could not be made read-only)" : "staying in it read-only";
		if (priv == 2 && !rw && chdir(wd) == 0)
			return e; // the sandbox's own
		if (priv || rw) {
			if (chdir("/") < 0)
				omega_dief(errno, "chdir /");
			if (!rw)
				start = "starting in / (the host's sockets there would be in reach)";
		}
		snprintf(msg, sizeof msg, "working directory %s is not visible in the sandbox (%s); %s%s",
		         *wd ? wd : "(deleted or unmounted on the host)",
		         e == EXDEV ? "that path is another directory there" : omega_errstr(e), start,
		         s->tmp_from[0] && strncmp(wd, "/tmp/", 5) == 0 ? TMP_WD_HINT : "");
		omega_warn(msg);
	}
	return e;
}
