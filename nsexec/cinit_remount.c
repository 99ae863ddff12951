//go:build linux && cgo && !omega_goinit

// cinit_remount.c: mount_setattr(2) for kernels without it (before 5.12;
// remount_linux.go in Go). Each mount is remounted (MS_REMOUNT|MS_BIND)
// with the flags it has, changed as asked: a user namespace may not drop
// a flag the kernel locked (nosuid, nodev, noexec, the atime ones), so
// all that statvfs reports are kept. A recursive change walks /proc/self/mountinfo for the mounts
// below. Every mount is reached without following symlinks.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cinit_internal.h"

// ms_flags turns attr bits into mount(2) flags.
static unsigned long ms_flags(uint64_t attr) {
	return (attr & OMEGA_MOUNT_ATTR_RDONLY ? MS_RDONLY : 0) | (attr & OMEGA_MOUNT_ATTR_NOSUID ? MS_NOSUID : 0) |
	       (attr & OMEGA_MOUNT_ATTR_NODEV ? MS_NODEV : 0);
}

// remount_one changes the mount fd is the root of; errno on failure.
static int remount_one(int fd, uint64_t set, uint64_t clr) {
	struct statvfs st;
	if (fstatvfs(fd, &st) < 0)
		return -1;
	// ST_NOSYMFOLLOW and MS_NOSYMFOLLOW (5.10) by number: older headers.
	static const unsigned long keep[][2] = {{ST_RDONLY, MS_RDONLY}, {ST_NOSUID, MS_NOSUID}, {ST_NODEV, MS_NODEV},
	    {ST_NOEXEC, MS_NOEXEC}, {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME},
	    {0x2000, 0x100}};
	unsigned long flags = 0;
	for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
		if (st.f_flag & keep[i][0])
			flags |= keep[i][1];
	flags = (flags | ms_flags(set)) & ~ms_flags(clr);
	char target[32];
	snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
	return mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | flags, NULL);
}

// below tells whether mount point mp lies strictly below path.
static int below(const char *mp, const char *path) {
	size_t n = strlen(path);
	if (strcmp(path, "/") == 0)
		return strcmp(mp, "/") != 0;
	return strncmp(mp, path, n) == 0 && mp[n] == '/';
}

// mnt_id_of is the id of the mount fd is on (fdinfo's mnt_id), or -1.
static int mnt_id_of(int fd) {
	char p[64], buf[512];
	snprintf(p, sizeof p, "/proc/self/fdinfo/%d", fd);
	int f = open(p, O_RDONLY | O_CLOEXEC);
	ssize_t n = f < 0 ? -1 : read(f, buf, sizeof buf - 1);
	if (f >= 0)
		close(f);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *m = strstr(buf, "mnt_id:");
	return m ? atoi(m + 7) : -1;
}

// remount_below changes every mount strictly below path that a path
// reaches. One that none does — covered by a later mount (a tmpfs over
// /tmp), stacked under another at the same place, its mount point
// deleted — is out of the program's reach as well, and keeps its flags.
static int remount_below(const char *path, uint64_t set, uint64_t clr, const char *how) {
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return omega_step_fail(errno, "remount below %s (%s): /proc/self/mountinfo", path, how);
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct omega_mountinfo m;
		if (omega_mountinfo_line(line, &m) < 0) { // a mount it cannot read could be one to change
			rc = omega_step_fail(EIO, "remount below %s (%s): a line of /proc/self/mountinfo not understood", path, how);
			break;
		}
		const char *mp = m.point;
		if (!below(mp, path))
			continue;
		int fd = omega_open_nofollow(mp);
		if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES))
			continue; // what covers it has no such path, or one the caller (and program) cannot search
		if (fd < 0) {
			rc = omega_nofollow_fail(errno, "remount", mp);
			break;
		}
		int at = mnt_id_of(fd);
		if (at < 0)
			rc = omega_step_fail(EIO, "remount %s (%s): no mnt_id in /proc/self/fdinfo", mp, how);
		else if ((unsigned long long)at == m.id && remount_one(fd, set, clr) < 0)
			rc = omega_step_fail(errno, "remount %s (%s)", mp, how);
		close(fd);
	}
	if (rc == 0 && ferror(f))
		rc = omega_step_fail(errno, "remount below %s (%s): /proc/self/mountinfo", path, how);
	free(line);
	fclose(f);
	return rc;
}

// omega_remount is mount_setattr on fd (or, when fd < 0, on canonical
// path) where the kernel lacks it; path names it in errors.
int omega_remount(int fd, const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how) {
	int own = fd < 0;
	if (own && (fd = omega_open_nofollow(path)) < 0)
		return omega_nofollow_fail(errno, "remount", path);
	int rc = remount_one(fd, set, clr) < 0 ? omega_step_fail(errno, "remount %s (%s)", path, how) : 0;
	if (own)
		close(fd);
	if (rc == 0 && (flags & AT_RECURSIVE))
		rc = remount_below(path, set, clr, how);
	return rc;
}
