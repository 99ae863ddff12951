//go:build linux && cgo && !omega_goinit

// cinit_idmaps.c writes the early init stage's id maps for its helper
// (cinit_early.c), as nsexec's setNamespaces has them written.

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cinit_internal.h"

static int write_file(const char *path, const char *text) {
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

// own_ids turns this namespace's map file (/proc/self/uid_map) into an
// identity map of the ids it has: "0 0 4294967295" on the host, only
// what it maps in a user namespace (a rootless container's root), whose
// parent would refuse the rest. 0 when the file cannot be read.
static int own_ids(const char *file, char *out, size_t n) {
	char buf[4096];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	size_t at = 0;
	out[0] = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long inner, outer, count;
		if (sscanf(line, "%lu %lu %lu", &inner, &outer, &count) != 3)
			return 0;
		int w = snprintf(out + at, n - at, "%lu %lu %lu\n", inner, inner, count);
		if (w < 0 || (size_t)w >= n - at)
			return 0;
		at += (size_t)w;
	}
	return at > 0;
}

// write_maps gives the init stage the ids nsexec's setNamespaces gives
// it: root keeps every id it has as it is, anyone else sees their own.
int omega_early_write_maps(pid_t c, uid_t uid, gid_t gid) {
	char path[64], map[4096];
	snprintf(path, sizeof path, "/proc/%d/uid_map", (int)c);
	if (uid != 0)
		snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	else if (!own_ids("/proc/self/uid_map", map, sizeof map))
		return -1;
	if (write_file(path, map) < 0)
		return -1;
	if (uid != 0) {
		snprintf(path, sizeof path, "/proc/%d/setgroups", (int)c);
		if (write_file(path, "deny") < 0)
			return -1;
	}
	snprintf(path, sizeof path, "/proc/%d/gid_map", (int)c);
	if (uid != 0)
		snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	else if (!own_ids("/proc/self/gid_map", map, sizeof map))
		return -1;
	return write_file(path, map);
}
