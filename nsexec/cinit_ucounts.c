//go:build linux && cgo && !omega_goinit

// cinit_ucounts.c: the sandbox's share of what the kernel counts per user
// across namespaces (ucounts_linux.go in Go).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cinit_internal.h"

// The host's limit (shown the same from every user namespace) and this
// namespace's own, which the kernel checks at each level: ucounts_linux.go's
// halvedCounts.
static const char *const halved[][2] = {
	{"/proc/sys/fs/inotify/max_user_instances", "/proc/sys/user/max_inotify_instances"},
	{"/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"},
	{"/proc/sys/fs/fanotify/max_user_groups", "/proc/sys/user/max_fanotify_groups"},
	{"/proc/sys/fs/fanotify/max_user_marks", "/proc/sys/user/max_fanotify_marks"},
};

// Namespaces, whose host limits no user namespace below shows: a fixed
// number each (ucounts_linux.go's nsCount).
static const char *const fixed[] = {
	"/proc/sys/user/max_user_namespaces", "/proc/sys/user/max_mnt_namespaces",
	"/proc/sys/user/max_pid_namespaces", "/proc/sys/user/max_net_namespaces",
	"/proc/sys/user/max_ipc_namespaces", "/proc/sys/user/max_uts_namespaces",
	"/proc/sys/user/max_cgroup_namespaces", "/proc/sys/user/max_time_namespaces",
};
#define NS_COUNT "1024"

// count_op is the call that failed on a count's sysctl ("open", "read",
// "write"; NULL for its content), which the Go stage's words name
// (os.ReadFile's and os.WriteFile's errors: "open PATH: …").
static const char *count_op;

// read_count reads a sysctl's number: -1 with errno (and count_op) on
// failure.
static long read_count(const char *path) {
	char buf[32];
	count_op = "open";
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC); // musl's open adds an fcntl
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	int e = errno;
	close(fd);
	count_op = n < 0 ? "read" : NULL;
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

// set_count writes v to a sysctl: 0, or -1 with errno (and count_op).
static int set_count(const char *path, const char *v) {
	count_op = "open";
	int fd = openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, v, strlen(v));
	int e = errno;
	close(fd);
	count_op = "write";
	errno = n < 0 ? e : EIO;
	return n == (ssize_t)strlen(v) ? 0 : -1;
}

// NO_PROC_SYS: the /proc omega-run was given has no /proc/sys (a unit's
// ProcSubset=pid), so no count can be set: said, not skipped.
#define NO_PROC_SYS "/proc/sys is missing (a unit's ProcSubset=pid)"

static char count_err[256];

static const char *count_failed(const char *path) {
	snprintf(count_err, sizeof count_err, "%s%s%s: %s", count_op ? count_op : "", count_op ? " " : "", path,
	         omega_errstr(errno));
	return count_err;
}

// omega_cap_user_counts sets this user namespace's limits: half the
// host's (rounded up) for inotify and fanotify, whose instances count
// against the caller's uid on the host too, so that the user's processes
// outside keep the other half; NS_COUNT namespaces of each type. A count
// this kernel does not have is skipped. NULL, or what failed.
const char *omega_cap_user_counts(void) {
	// Every count would be skipped as missing (ucounts_linux.go's words).
	if (access("/proc/sys", F_OK) < 0 && errno == ENOENT)
		return NO_PROC_SYS;
	for (size_t i = 0; i < sizeof halved / sizeof halved[0]; i++) {
		long host = read_count(halved[i][0]);
		if (host < 0 && errno != ENOENT)
			return count_failed(halved[i][0]);
		char v[24];
		snprintf(v, sizeof v, "%ld", host - host / 2);
		if (host >= 0 && set_count(halved[i][1], v) < 0 && errno != ENOENT)
			return count_failed(halved[i][1]);
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (set_count(fixed[i], NS_COUNT) < 0 && errno != ENOENT)
			return count_failed(fixed[i]);
	return NULL;
}

// The resource limits the kernel also counts per user at each level of
// user namespaces: processes (threads too), pending signals, POSIX
// message-queue bytes. In the sandbox's user namespace the program's count
// is held to its own limit, and only then the host's to the caller's: half
// the caller's soft limit, as the hard one too (the program cannot raise
// it back), leaves the user's processes outside the other half. Not one
// the caller gave (--rlimit), nor an unlimited one. ucounts_linux.go's
// sharedLimits.
static const int shared_limits[] = {RLIMIT_NPROC, RLIMIT_SIGPENDING, RLIMIT_MSGQUEUE};

static int limit_given(const struct spec *s, int resource) {
	for (uint32_t i = 0; i < s->nlimits; i++)
		if (s->limits[i].resource == resource)
			return 1;
	return 0;
}

static char limits_err[256]; // apart from count_err: both may be said

static const char *limits_failed(const char *call) {
	snprintf(limits_err, sizeof limits_err, "%s: %s", call, omega_errstr(errno));
	return limits_err;
}

// omega_own_tasks are the init stage's tasks beside the program, which count
// against nproc in the namespace too: PID 1, and the first thread of its
// connect broker, which stays (more only while connects queue). The
// program gets its half besides (ucounts_linux.go's shareLimits).
rlim_t omega_own_tasks(const struct spec *s) {
	if (!(s->flags & F_PID1))
		return 0; // this process becomes the program
	return omega_brokered(s) ? 2 : 1;
}

// halve_shared_limits sets this process's shared limits, before it forks
// PID 1's child or the program: NULL, or what failed.
static const char *halve_shared_limits(const struct spec *s) {
	for (size_t i = 0; i < sizeof shared_limits / sizeof shared_limits[0]; i++) {
		struct rlimit cur;
		if (limit_given(s, shared_limits[i]))
			continue;
		if (getrlimit(shared_limits[i], &cur) < 0)
			return limits_failed("getrlimit");
		if (cur.rlim_cur == RLIM_INFINITY)
			continue;
		rlim_t v = cur.rlim_cur - cur.rlim_cur / 2;
		if (shared_limits[i] == RLIMIT_NPROC && v + omega_own_tasks(s) <= cur.rlim_cur)
			v += omega_own_tasks(s);
		struct rlimit half = {v, v};
		if (setrlimit(shared_limits[i], &half) < 0)
			return limits_failed("setrlimit");
	}
	return NULL;
}

// left_open says which limits the program may use up, and why: a
// warning, or the launch's end with --fail-closed.
static void left_open(const struct spec *s, const char *what, const char *err) {
	char msg[512];
	snprintf(msg, sizeof msg, "the program may use up your user's %s limits, which your programs outside share (%s)",
		what, err);
	if (s->flags & F_FAIL_CLOSED)
		omega_die(125, "--fail-closed: %s", msg);
	omega_warn(msg);
}

// omega_user_counts caps the counts where the spec asks (an early start
// did it while waiting: early_err), and says so when that failed: a
// warning, or the launch's end with --fail-closed.
void omega_user_counts(const struct spec *s, int early, const char *early_err) {
	if (!(s->flags & F_USER_COUNTS))
		return;
	// Each on its own: the limits need no /proc/sys, which a container
	// or a unit's ProtectKernelTunables= keeps read-only.
	const char *counts = early ? early_err : omega_cap_user_counts();
	const char *limits = halve_shared_limits(s);
	if (counts != NULL)
		left_open(s, "inotify, fanotify and namespace", counts);
	if (limits != NULL)
		left_open(s, "process, pending-signal and message-queue", limits);
}
