//go:build linux && cgo && !omega_goinit

// cinit.c is omega-run's init stage in C. The parent re-executes
// /proc/self/exe with argv[1] == "__omega_run_init__" (nsexec.InitArg);
// the constructor below recognises that before the Go runtime starts, so
// the init stage never pays for a second Go runtime, dynamic load of Go
// code, package inits and threads (bench/PROFILE.md). It does exactly what
// the Go init stage (init_linux.go and the files it calls) does, in the
// same order, and never returns: it execs the program, or, as PID 1, exits
// with the program's status. Every other process returns at once.
//
// The parent computed everything (spec_linux.go); the spec arrives at fd 3
// in the wire format documented in wire_linux.go, with the Landlock
// ruleset precomputed for this kernel (landlock.Plan). This file only
// performs system calls. Failures print one line
// "omega-run: init: <what>: <error>" and exit 125 (126/127 for exec).
// Error texts follow Go's (lowercase strerror) so both stages read alike.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "cinit.h"

// System call numbers and structures newer than some C libraries' headers.
// These numbers are the same on every architecture omega-run builds for.
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#define OMEGA_CLOSE_RANGE_CLOEXEC (1U << 2)
#define OMEGA_MOUNT_ATTR_RDONLY 0x1
#define OMEGA_LANDLOCK_RULE_PATH_BENEATH 1

struct omega_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

struct omega_ruleset_attr {
	uint64_t handled_access_fs, handled_access_net, scoped;
};

struct omega_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define SPEC_FD 3

// ---------------------------------------------------------------- errors

static int log_json;

// errstr is strerror in Go's spelling (lowercase first letter).
static const char *errstr(int e) {
	static char buf[128];
	snprintf(buf, sizeof buf, "%s", strerror(e));
	if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
		buf[0] += 'a' - 'A';
	return buf;
}

static void __attribute__((noreturn, format(printf, 2, 3))) die(int code, const char *fmt, ...) {
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	dprintf(2, "omega-run: init: %s\n", msg);
	_exit(code);
}

// dief reports a failed call (what, from fmt) with errno e and exits 125.
static void __attribute__((noreturn, format(printf, 2, 3))) dief(int e, const char *fmt, ...) {
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	die(125, "%s: %s", what, errstr(e));
}

// The mount steps return -1 and leave their error here, so that the
// caller can fall back (EPERM) instead of failing.
static char step_msg[1024];
static int step_err;

static int __attribute__((format(printf, 2, 3))) step_fail(int e, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(step_msg, sizeof step_msg, fmt, ap);
	va_end(ap);
	step_err = e;
	return -1;
}

// json_put writes s as a JSON string the way Go's encoding/json does
// (HTML characters and U+2028/2029 escaped).
static void json_put(FILE *f, const char *s) {
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '<': case '>': case '&': fprintf(f, "\\u%04x", *p); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
				fprintf(f, "\\u202%c", p[2] == 0xa8 ? '8' : '9'), p += 2;
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

// warn writes one warning line in the parent's log format (warn_linux.go).
static void warn(const char *msg) {
	char line[4096];
	FILE *f = fmemopen(line, sizeof line, "w");
	if (!f)
		return;
	if (!log_json) {
		fprintf(f, "omega-run: warning: %s\n", msg);
	} else {
		// RFC 3339 in local time, as Go's time.Now().Format(time.RFC3339).
		char ts[40], zone[24] = "Z";
		time_t now = time(NULL);
		struct tm tm;
		tzset();
		localtime_r(&now, &tm);
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
		if (tm.tm_gmtoff != 0) {
			long off = tm.tm_gmtoff < 0 ? -tm.tm_gmtoff : tm.tm_gmtoff;
			snprintf(zone, sizeof zone, "%c%02ld:%02ld", tm.tm_gmtoff < 0 ? '-' : '+', off / 3600, off / 60 % 60);
		}
		fputs("{\"level\":\"warning\",\"msg\":", f);
		json_put(f, msg);
		fprintf(f, ",\"time\":\"%s%s\"}\n", ts, zone);
	}
	long n = ftell(f);
	fclose(f);
	if (n > 0)
		(void)!write(2, line, n < (long)sizeof line ? (size_t)n : sizeof line - 1);
}

// ------------------------------------------------------------------ spec

// strs is a decoded list: pointers into the spec buffer, NULL-terminated
// (so argv and env can go to execve as they are).
struct strs {
	uint32_t n;
	const char **v;
};

struct limit {
	const char *name;
	int32_t resource;
	uint64_t soft, hard;
	uint32_t keep;
};

struct rule {
	const char *path;
	uint64_t access;
	uint32_t missing;
};

struct spec {
	uint32_t flags, keep_fds;
	const char *path, *hostname, *tmp_from;
	struct strs argv, env, unsetenv;
	struct strs writable, keep, hide_dirs, hide_files, read_only;
	uint32_t uid, gid, ngroups;
	gid_t *groups;
	uint32_t nlimits;
	struct limit *limits;
	struct omega_ruleset_attr ll;
	uint32_t ll_flags, nrules;
	struct rule *rules;
	struct sock_filter *bpf;
	uint32_t bpf_len, seccomp_flags;
};

// The flag bits of wire_linux.go.
enum {
	F_PID1 = 1 << 0, F_LOOPBACK = 1 << 1, F_NEW_SESSION = 1 << 2, F_FAIL_CLOSED = 1 << 3,
	F_PLAIN = 1 << 4, F_CLEAR_ENV = 1 << 5, F_GO_AHEAD = 1 << 6, F_CGROUP_NS = 1 << 7,
	F_PROBE = 1 << 8, F_LOG_JSON = 1 << 9, F_MOUNTS = 1 << 10, F_FRESH_RUN = 1 << 11,
	F_USER = 1 << 12, F_SECCOMP = 1 << 13,
};

enum { MISSING_FAILS, MISSING_SKIPPED, MISSING_IGNORED }; // landlock.Missing

struct cursor {
	const unsigned char *p, *end;
	int bad;
};

static const unsigned char *take(struct cursor *c, uint64_t n) {
	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = 1;
		return NULL;
	}
	const unsigned char *out = c->p;
	c->p += n;
	return out;
}

static uint32_t rd_u32(struct cursor *c) {
	const unsigned char *b = take(c, 4);
	return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

static uint64_t rd_u64(struct cursor *c) {
	uint64_t lo = rd_u32(c);
	return lo | (uint64_t)rd_u32(c) << 32;
}

static const char *rd_str(struct cursor *c) {
	uint64_t n = rd_u32(c);
	const unsigned char *b = take(c, n + 1);
	if (!b || b[n] != 0 || memchr(b, 0, n)) {
		c->bad = 1;
		return "";
	}
	return (const char *)b;
}

static void *alloc(uint64_t n, size_t size) {
	void *p = calloc(n + 1, size);
	if (!p)
		die(125, "decode spec: out of memory");
	return p;
}

static void rd_strs(struct cursor *c, struct strs *s) {
	s->n = rd_u32(c);
	if (s->n > (uint64_t)(c->end - c->p)) // every string takes 5 bytes at least
		c->bad = 1;
	if (c->bad)
		s->n = 0;
	s->v = alloc(s->n, sizeof *s->v);
	for (uint32_t i = 0; i < s->n; i++)
		s->v[i] = rd_str(c);
}

// spec_decode fills s from the wire format; -1 when it is malformed.
// Fields only the Go init stage uses (Landlock rules, warnings) are read
// and dropped.
static int spec_decode(const unsigned char *buf, size_t len, struct spec *s) {
	struct cursor c = {buf, buf + len, 0};
	struct strs skip;
	memset(s, 0, sizeof *s);
	if (len < 4 || memcmp(buf, "OMS1", 4) != 0)
		return -1;
	c.p += 4;
	s->flags = rd_u32(&c);
	s->keep_fds = rd_u32(&c);
	s->path = rd_str(&c);
	rd_strs(&c, &s->argv);
	rd_strs(&c, &s->env);
	rd_strs(&c, &s->unsetenv);
	s->hostname = rd_str(&c);
	if (s->flags & F_MOUNTS) {
		rd_strs(&c, &s->writable);
		s->tmp_from = rd_str(&c);
		rd_strs(&c, &s->keep);
		rd_strs(&c, &s->hide_dirs);
		rd_strs(&c, &s->hide_files);
		rd_strs(&c, &s->read_only);
	}
	if (s->flags & F_USER) {
		s->uid = rd_u32(&c);
		s->gid = rd_u32(&c);
		s->ngroups = rd_u32(&c);
		if (s->ngroups > (uint64_t)(c.end - c.p) / 4)
			return -1;
		s->groups = alloc(s->ngroups, sizeof *s->groups);
		for (uint32_t i = 0; i < s->ngroups; i++)
			s->groups[i] = rd_u32(&c);
	}
	s->nlimits = rd_u32(&c);
	if (s->nlimits > (uint64_t)(c.end - c.p))
		return -1;
	s->limits = alloc(s->nlimits, sizeof *s->limits);
	for (uint32_t i = 0; i < s->nlimits; i++) {
		struct limit *l = &s->limits[i];
		l->name = rd_str(&c);
		l->resource = (int32_t)rd_u32(&c);
		l->soft = rd_u64(&c);
		l->hard = rd_u64(&c);
		l->keep = rd_u32(&c);
	}
	for (int i = 0; i < 3; i++) // Landlock.ReadExec, Writable, Devices
		rd_strs(&c, &skip);
	s->ll.handled_access_fs = rd_u64(&c);
	s->ll.handled_access_net = rd_u64(&c);
	s->ll.scoped = rd_u64(&c);
	s->ll_flags = rd_u32(&c);
	s->nrules = rd_u32(&c);
	if (s->nrules > (uint64_t)(c.end - c.p))
		return -1;
	s->rules = alloc(s->nrules, sizeof *s->rules);
	for (uint32_t i = 0; i < s->nrules; i++) {
		s->rules[i].path = rd_str(&c);
		s->rules[i].access = rd_u64(&c);
		s->rules[i].missing = rd_u32(&c);
	}
	if (s->flags & F_SECCOMP) {
		uint32_t n = rd_u32(&c);
		const unsigned char *b = take(&c, n);
		// Copied: the kernel wants the instructions aligned.
		s->bpf = alloc(n / sizeof(struct sock_filter) + 1, sizeof(struct sock_filter));
		if (b)
			memcpy(s->bpf, b, n);
		s->bpf_len = n;
		s->seccomp_flags = rd_u32(&c);
	}
	rd_strs(&c, &skip); // Warnings
	return c.bad || c.p != c.end ? -1 : 0;
}

static void describe_strs(FILE *f, const char *name, const struct strs *l) {
	for (uint32_t i = 0; i < l->n; i++)
		fprintf(f, "%s %s\n", name, l->v[i]);
}

// omega_spec_describe is for the test that holds this decoder against the
// Go one (wire_test.go's describe prints the same text).
char *omega_spec_describe(const unsigned char *buf, size_t len) {
	struct spec s;
	char *out = NULL;
	size_t n = 0;
	if (spec_decode(buf, len, &s) < 0)
		return NULL;
	FILE *f = open_memstream(&out, &n);
	if (!f)
		return NULL;
	fprintf(f, "flags %#x\nkeep_fds %u\npath %s\nhostname %s\n", s.flags, s.keep_fds, s.path, s.hostname);
	describe_strs(f, "argv", &s.argv);
	describe_strs(f, "env", &s.env);
	describe_strs(f, "unsetenv", &s.unsetenv);
	if (s.flags & F_MOUNTS) {
		describe_strs(f, "writable", &s.writable);
		fprintf(f, "tmp_from %s\n", s.tmp_from);
		describe_strs(f, "keep", &s.keep);
		describe_strs(f, "hide_dir", &s.hide_dirs);
		describe_strs(f, "hide_file", &s.hide_files);
		describe_strs(f, "read_only", &s.read_only);
	}
	if (s.flags & F_USER) {
		fprintf(f, "user %u %u\n", s.uid, s.gid);
		for (uint32_t i = 0; i < s.ngroups; i++)
			fprintf(f, "group %u\n", (unsigned)s.groups[i]);
	}
	for (uint32_t i = 0; i < s.nlimits; i++)
		fprintf(f, "limit %s %d %llu %llu %u\n", s.limits[i].name, s.limits[i].resource,
		        (unsigned long long)s.limits[i].soft, (unsigned long long)s.limits[i].hard, s.limits[i].keep);
	fprintf(f, "landlock %#llx %#llx %#llx %#x\n", (unsigned long long)s.ll.handled_access_fs,
	        (unsigned long long)s.ll.handled_access_net, (unsigned long long)s.ll.scoped, s.ll_flags);
	for (uint32_t i = 0; i < s.nrules; i++)
		fprintf(f, "rule %s %#llx %u\n", s.rules[i].path, (unsigned long long)s.rules[i].access, s.rules[i].missing);
	if (s.flags & F_SECCOMP) {
		fprintf(f, "seccomp %u %#x", s.bpf_len, s.seccomp_flags);
		for (uint32_t i = 0; i < s.bpf_len / sizeof *s.bpf; i++)
			fprintf(f, " %04x:%02x:%02x:%08x", s.bpf[i].code, s.bpf[i].jt, s.bpf[i].jf, s.bpf[i].k);
		fputc('\n', f);
	}
	fclose(f);
	return out;
}

static void read_spec(struct spec *s) {
	struct stat st;
	if (fstat(SPEC_FD, &st) < 0)
		die(125, "spec fd %d: %s", SPEC_FD, errstr(errno));
	unsigned char *buf = alloc(st.st_size, 1);
	for (off_t off = 0; off < st.st_size;) {
		ssize_t n = pread(SPEC_FD, buf + off, st.st_size - off, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die(125, "read spec: %lld of %lld bytes, %s", (long long)off, (long long)st.st_size,
			    n < 0 ? errstr(errno) : "EOF");
		off += n;
	}
	close(SPEC_FD);
	if (spec_decode(buf, st.st_size, s) < 0)
		die(125, "decode spec: malformed");
}

// ------------------------------------------------------- files and fds

// mkdir_all is Go's os.MkdirAll: an existing directory is fine, the
// parents are created first. It cuts p at each slash in turn and puts the
// slash back. On failure step_msg names the path.
static int mkdir_all_in(char *p, mode_t mode) {
	struct stat st;
	if (stat(p, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : step_fail(ENOTDIR, "mkdir %s", p);
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
		return step_fail(e, "mkdir %s", p);
	}
	return 0;
}

static int mkdir_all(const char *path, mode_t mode) {
	char *p = strdup(path);
	if (!p)
		return step_fail(ENOMEM, "mkdir %s", path);
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

// set_cloexec_from marks every fd from first on close-on-exec: the spec
// and anything the caller leaked must not reach the program.
static void set_cloexec_from(unsigned first) {
	if (syscall(SYS_close_range, first, ~0U, OMEGA_CLOSE_RANGE_CLOEXEC) < 0)
		dief(errno, "close_range");
}

// ---------------------------------------------------------------- mounts

static int do_mount(const char *src, const char *dst, const char *fstype, unsigned long flags, const char *data) {
	if (mount(src, dst, fstype, flags, data) < 0)
		return step_fail(errno, "mount %s on %s", src, dst);
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
		return step_fail(errno, "mount_setattr(%s, %s)", path, how);
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
			return step_fail(e, "fstat %s", paths->v[i]);
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
	struct strs src = {s->writable.n, alloc(s->writable.n, sizeof(char *))};
	struct held *h = alloc(s->writable.n, sizeof *h);
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
			char inner[sizeof step_msg];
			snprintf(inner, sizeof inner, "%s", step_msg);
			step_fail(step_err, "mount point %s: %s", t, inner);
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

// rebind puts each held path back at its place in the new /run or /tmp.
static int rebind(struct held *h, int n) {
	for (int i = 0; i < n; i++) {
		// filepath.Dir of a clean absolute path.
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", h[i].path);
		char *slash = strrchr(dir, '/');
		if (slash == dir)
			dir[1] = 0;
		else if (slash)
			*slash = 0;
		if (mkdir_all(dir, 0755) < 0) {
			char inner[sizeof step_msg];
			snprintf(inner, sizeof inner, "%s", step_msg);
			return step_fail(step_err, "keep %s: %s", h[i].path, inner);
		}
		if (h[i].dir) {
			if (mkdir(h[i].path, 0755) < 0 && errno != EEXIST)
				return step_fail(errno, "keep %s: mkdir %s", h[i].path, h[i].path);
		} else {
			int fd = open(h[i].path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
			if (fd < 0)
				return step_fail(errno, "keep %s: open %s", h[i].path, h[i].path);
			close(fd);
		}
		if (bind_fd(h[i].fd, h[i].path, 0) < 0)
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
			step_fail(errno, "create %s: open %s", path, path);
			goto out;
		}
		if (bind_fd(fds[i], path, 0) < 0)
			goto out;
	}
	if (mkdir("/dev/pts", 0755) < 0) {
		step_fail(errno, "mkdir /dev/pts: mkdir /dev/pts");
		goto out;
	}
	if (do_mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		goto out;
	if (mkdir("/dev/shm", 0755) < 0) {
		step_fail(errno, "mkdir /dev/shm: mkdir /dev/shm");
		goto out;
	}
	if (do_mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
		goto out;
	for (int i = 0; i < 5; i++) {
		if (symlink(links[i][0], links[i][1]) < 0) {
			step_fail(errno, "symlink %s: symlink %s %s", links[i][1], links[i][0], links[i][1]);
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
// again, so nothing shows where it came from).
static int hide(const struct spec *s) {
	static const char empty[] = "/dev/.omega-run-empty";
	int rc = 0;
	for (uint32_t i = 0; i < s->hide_dirs.n; i++)
		if (do_mount("tmpfs", s->hide_dirs.v[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		             "size=4k,mode=0755") < 0)
			return -1;
	if (s->hide_files.n == 0)
		return 0;
	if (create_file(empty, 0444) < 0)
		return step_fail(errno, "create %s: open %s", empty, empty);
	for (uint32_t i = 0; i < s->hide_files.n && rc == 0; i++) {
		const char *f = s->hide_files.v[i];
		rc = do_mount(empty, f, NULL, MS_BIND, NULL);
		if (rc == 0)
			rc = set_attr(f, 0, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY");
	}
	unlink(empty);
	return rc;
}

// read_only_binds makes each path (inside a writable root) read-only.
static int read_only_binds(const struct spec *s) {
	for (uint32_t i = 0; i < s->read_only.n; i++) {
		const char *p = s->read_only.v[i];
		if (do_mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0)
			return -1;
		if (set_attr(p, AT_RECURSIVE, OMEGA_MOUNT_ATTR_RDONLY, 0, "RDONLY") < 0)
			return -1;
	}
	return 0;
}

// setup_mounts is mounts_linux.go's setupMounts: the host root stays the
// root; paths to keep are held by fd before anything covers them, the
// root goes read-only before /proc and /dev are mounted on it, and masks
// come last so nothing mounts over them.
static int setup_mounts(const struct spec *s) {
	// Nothing mounted here may propagate back to the host.
	if (do_mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	struct held *kept = alloc(s->keep.n, sizeof *kept);
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

// getwd is Go's os.Getwd: $PWD when it names the current directory.
static char *getwd_go(void) {
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

// -------------------------------------------------------------- confine

static int last_cap(void) {
	char buf[32] = {0};
	int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 40; // CAP_CHECKPOINT_RESTORE, the last one in 6.x
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 40;
	char *end;
	long v = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n'))
		die(125, "capabilities: cap_last_cap: invalid syntax");
	return (int)v;
}

// drop_bounding empties the bounding set when this process may
// (CAP_SETPCAP); confine_linux.go's dropBounding.
static void drop_bounding(void) {
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	if (syscall(SYS_capget, &hdr, data) < 0)
		dief(errno, "capabilities: capget");
	if (!(data[0].effective & (1U << CAP_SETPCAP)))
		return;
	for (int c = 0, last = last_cap(); c <= last; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			dief(errno, "capabilities: prctl(PR_CAPBSET_DROP)");
}

static void clear_capabilities(void) {
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		dief(errno, "capabilities: prctl(PR_CAP_AMBIENT_CLEAR_ALL)");
	if (syscall(SYS_capset, &hdr, data) < 0)
		dief(errno, "capabilities: capset");
}

static int enforces_landlock(const struct spec *s) {
	return s->ll.handled_access_fs || s->ll.handled_access_net || s->ll.scoped;
}

// landlock_prepare builds the planned ruleset (after the mounts, so that
// /dev/pts and /dev/shm are the new ones; before the user switch, so that
// every path can still be opened). -1 when there is nothing to enforce.
static int landlock_prepare(const struct spec *s) {
	if (!enforces_landlock(s))
		return -1;
	int fd = syscall(SYS_landlock_create_ruleset, &s->ll, sizeof s->ll, 0);
	if (fd < 0)
		dief(errno, "landlock: landlock_create_ruleset");
	for (uint32_t i = 0; i < s->nrules; i++) {
		const struct rule *r = &s->rules[i];
		int pfd = open(r->path, O_PATH | O_CLOEXEC);
		if (pfd < 0) {
			if (r->missing == MISSING_IGNORED || (r->missing == MISSING_SKIPPED && errno == ENOENT))
				continue;
			dief(errno, "landlock: populating ruleset for \"%s\": open", r->path);
		}
		struct omega_path_beneath pb = {r->access, pfd};
		if (syscall(SYS_landlock_add_rule, fd, OMEGA_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
			dief(errno, "landlock: populating ruleset for \"%s\": landlock_add_rule", r->path);
		close(pfd);
	}
	return fd;
}

static void seccomp_install(const struct spec *s) {
	uint32_t n = s->bpf_len / sizeof(struct sock_filter);
	if (n == 0)
		die(125, "seccomp: install: empty program");
	if (s->bpf_len % sizeof(struct sock_filter))
		die(125, "seccomp: install: BPF program of %u bytes is not a whole number of instructions", s->bpf_len);
	if (n > BPF_MAXINSNS)
		die(125, "seccomp: install: %u instructions, the kernel takes at most %d", n, BPF_MAXINSNS);
	struct sock_fprog prog = {(unsigned short)n, s->bpf};
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC | s->seccomp_flags, &prog);
	if (r < 0 && errno == EACCES)
		die(125, "seccomp: install: permission denied (no_new_privs is not set)");
	if (r < 0 && errno == EINVAL)
		die(125, "seccomp: install: %s (kernel without CONFIG_SECCOMP_FILTER, or a flag it does not know)", errstr(EINVAL));
	if (r < 0)
		dief(errno, "seccomp: install");
	if (r > 0)
		die(125, "seccomp: install: thread %ld could not be synchronised", r);
}

// confine is confine_linux.go's confine, in its order: bounding set (needs
// CAP_SETPCAP), Landlock ruleset built, user switch (CAP_SETUID), the other
// capabilities, no_new_privs, Landlock enforced, seccomp last.
static void confine(const struct spec *s) {
	int ruleset = -1;
	if (!(s->flags & F_PLAIN)) {
		drop_bounding();
		ruleset = landlock_prepare(s);
	}
	if (s->flags & F_USER) {
		if (setgroups(s->ngroups, s->groups) < 0)
			dief(errno, "--user: setgroups");
		if (setresgid(s->gid, s->gid, s->gid) < 0)
			dief(errno, "--user: setresgid");
		if (setresuid(s->uid, s->uid, s->uid) < 0)
			dief(errno, "--user: setresuid");
	}
	if (s->flags & F_PLAIN)
		return;
	clear_capabilities();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		dief(errno, "prctl(PR_SET_NO_NEW_PRIVS)");
	if (ruleset >= 0) {
		if (syscall(SYS_landlock_restrict_self, ruleset, s->ll_flags) < 0) {
			if (errno == E2BIG)
				dief(errno, "landlock: too many nested rulesets");
			dief(errno, "landlock: restrict_self");
		}
		close(ruleset);
	} else if (s->flags & F_FAIL_CLOSED) {
		die(125, "landlock: unavailable and --fail-closed is set");
	}
	if (s->flags & F_SECCOMP)
		seccomp_install(s);
}

// --------------------------------------------------------- env, limits

static size_t key_len(const char *kv) {
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int has_key(const char **list, uint32_t n, const char *kv) {
	size_t k = key_len(kv);
	for (uint32_t i = 0; i < n; i++)
		if (key_len(list[i]) == k && strncmp(list[i], kv, k) == 0)
			return 1;
	return 0;
}

// program_env is init_linux.go's programEnv: the inherited environment
// without the unset names and without keys the spec adds, then the
// additions, of which the last with a key wins.
static char **program_env(const struct spec *s, char **inherited) {
	size_t n = 0;
	for (char **e = inherited; e && *e; e++)
		n++;
	char **env = alloc(n + s->env.n, sizeof *env);
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		const char *kv = inherited[i];
		if (has_key(s->env.v, s->env.n, kv))
			continue;
		size_t k = key_len(kv);
		int unset = 0;
		for (uint32_t u = 0; u < s->unsetenv.n && !unset; u++)
			unset = strlen(s->unsetenv.v[u]) == k && strncmp(s->unsetenv.v[u], kv, k) == 0;
		if (!unset)
			env[j++] = (char *)kv;
	}
	for (uint32_t i = 0; i < s->env.n; i++)
		if (!has_key(s->env.v + i + 1, s->env.n - i - 1, s->env.v[i]))
			env[j++] = (char *)s->env.v[i];
	env[j] = NULL;
	return env;
}

static const char *fmt_limit(uint64_t v, char *buf) {
	if (v == RLIM_INFINITY)
		return "unlimited";
	sprintf(buf, "%llu", (unsigned long long)v);
	return buf;
}

// apply_limits is rlimits.Apply, right before the program starts.
static void apply_limits(const struct spec *s) {
	for (uint32_t i = 0; i < s->nlimits; i++) {
		const struct limit *l = &s->limits[i];
		char a[24], b[24];
		if (l->resource < 0)
			die(125, "rlimits: %s: no resource number", l->name);
		struct rlimit want = {l->soft, l->hard}, cur;
		if (l->keep) {
			if (getrlimit(l->resource, &cur) < 0)
				dief(errno, "rlimits: %s: getrlimit", l->name);
			// The Go init stage runs with the soft nofile limit raised to
			// the hard one (the Go runtime does that at start-up), and a
			// kept soft limit is taken from there; keep that behaviour.
			if (l->resource == RLIMIT_NOFILE)
				cur.rlim_cur = cur.rlim_max;
			if (l->keep & 1)
				want.rlim_cur = cur.rlim_cur < want.rlim_max ? cur.rlim_cur : want.rlim_max;
			if (l->keep & 2)
				want.rlim_max = cur.rlim_max;
		}
		if (want.rlim_cur > want.rlim_max)
			die(125, "rlimits: %s: soft limit %s would be above hard limit %s", l->name,
			    fmt_limit(want.rlim_cur, a), fmt_limit(want.rlim_max, b));
		if (setrlimit(l->resource, &want) < 0) {
			int e = errno;
			die(125, "rlimits: %s=%s:%s: setrlimit: %s%s", l->name, fmt_limit(want.rlim_cur, a),
			    fmt_limit(want.rlim_max, b), errstr(e),
			    e == EPERM ? " (raising a hard limit needs CAP_SYS_RESOURCE; nofile is capped by fs.nr_open)" : "");
		}
	}
}

// ----------------------------------------------------------------- run

static void __attribute__((noreturn)) exec_failed(const char *path, int e) {
	die(e == ENOENT ? 127 : 126, "exec %s: %s", path, errstr(e));
}

// The signals PID 1 forwards (pid1_linux.go's Forwarded), and SIGCHLD.
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT};

// supervise is pid1_linux.go's supervise: PID 1 starts the program as its
// child, forwards signals to it, reaps every zombie and exits with the
// program's status once it is gone; the kernel then kills whatever is
// left in the namespace. PID 1 is confined like the program (confine ran
// before the fork) and stays non-dumpable.
static void __attribute__((noreturn)) supervise(const struct spec *s, char **env, const sigset_t *orig) {
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	set_cloexec_from(3 + s->keep_fds);
	// Limits go last: they bind this process too, and a low one must not
	// stop the setup above.
	apply_limits(s);
	pid_t child = fork();
	if (child < 0)
		exec_failed(s->path, errno);
	if (child == 0) {
		sigprocmask(SIG_SETMASK, orig, NULL);
		// Without a seccomp filter nothing stops TIOCSTI, so the program
		// then gets a session of its own and no controlling terminal.
		if ((s->flags & F_NEW_SESSION) && setsid() < 0)
			exec_failed(s->path, errno);
		execve(s->path, (char **)s->argv.v, env);
		exec_failed(s->path, errno);
	}
	// The program stays in the caller's process group, so keys typed at
	// the terminal reach it directly; PID 1 leaves that group so that it
	// only sees signals sent to it on purpose, and forwards each once.
	setpgid(0, 0);
	for (;;) {
		int sig = sigwaitinfo(&set, NULL);
		if (sig < 0) {
			if (errno == EINTR)
				continue;
			_exit(125);
		}
		if (sig != SIGCHLD) {
			kill(child, sig);
			continue;
		}
		for (;;) {
			int st;
			pid_t got = waitpid(-1, &st, WNOHANG);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				_exit(125);
			if (got == 0)
				break;
			if (got == child)
				_exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
		}
	}
}

static void __attribute__((noreturn)) run_init(char **envp) {
	struct spec s;
	sigset_t orig, fwd;
	// Nobody inside may open this process's memory, fds or exe through
	// /proc: it holds capabilities in the namespace until confine().
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		dief(errno, "prctl(PR_SET_DUMPABLE)");
	read_spec(&s);
	log_json = (s.flags & F_LOG_JSON) != 0;
	// PID 1 blocks what it forwards (and SIGCHLD) from now on: the
	// signals wait, pending, until sigwaitinfo after the fork. A pid
	// namespace's init would drop them otherwise (no handler).
	sigprocmask(SIG_BLOCK, NULL, &orig);
	if (s.flags & F_PID1) {
		sigemptyset(&fwd);
		for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
			sigaddset(&fwd, forwarded[i]);
		sigaddset(&fwd, SIGCHLD);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_BLOCK, &fwd, NULL);
	}
	// The go-ahead: the parent has put this process in its cgroup (v1);
	// then a cgroup namespace rooted there.
	if (s.flags & F_GO_AHEAD) {
		int fd = SPEC_FD + 1 + s.keep_fds;
		char b;
		ssize_t n = read(fd, &b, 1);
		int e = errno;
		close(fd);
		if (n != 1)
			die(125, "waiting for the parent: %zd bytes, %s", n, n < 0 ? errstr(e) : "<nil>");
		if ((s.flags & F_CGROUP_NS) && unshare(CLONE_NEWCGROUP) < 0)
			dief(errno, "unshare(CLONE_NEWCGROUP)");
	}
	// The preserved fds follow the spec fd: move them down to 3….
	for (uint32_t i = 0; i < s.keep_fds; i++)
		if (dup3(SPEC_FD + 1 + i, SPEC_FD + i, 0) < 0)
			dief(errno, "dup3");
	if (s.keep_fds > 0)
		set_cloexec_from(SPEC_FD + s.keep_fds);
	if (s.flags & F_MOUNTS) {
		char *wd = getwd_go(), msg[2048];
		if (setup_mounts(&s) < 0) {
			if (step_err != EPERM || (s.flags & F_FAIL_CLOSED))
				die(125, "mounts: %s: %s", step_msg, errstr(step_err));
			// Ubuntu's AppArmor userns restriction: clone worked but the
			// namespace holds no privilege. Landlock still confines writes.
			snprintf(msg, sizeof msg,
			         "mount namespace unusable (%s: %s): /proc and /dev are the host's; on Ubuntu allow user "
			         "namespaces for omega-run with an AppArmor profile (see README)",
			         step_msg, errstr(step_err));
			warn(msg);
		}
		// The cwd still points into the mount tree from before the binds;
		// look the same path up again so it lands on the new mounts.
		if (chdir(wd) < 0) {
			snprintf(msg, sizeof msg,
			         "working directory %s is not visible in the sandbox (chdir %s: %s); staying in it read-only",
			         wd, wd, errstr(errno));
			warn(msg);
		}
	}
	if (s.hostname[0] && sethostname(s.hostname, strlen(s.hostname)) < 0)
		dief(errno, "sethostname");
	if (s.flags & F_LOOPBACK) {
		// lo up in the new network namespace: one flag, no netlink.
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			dief(errno, "loopback: socket");
		struct ifreq ifr;
		memset(&ifr, 0, sizeof ifr);
		strcpy(ifr.ifr_name, "lo");
		ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			dief(errno, "loopback: ioctl(SIOCSIFFLAGS)");
		close(fd);
	}
	if (s.flags & F_PROBE)
		_exit(0);
	char **env = program_env(&s, (s.flags & F_CLEAR_ENV) ? NULL : envp);
	confine(&s);
	if (s.flags & F_PID1)
		supervise(&s, env, &orig);
	apply_limits(&s);
	set_cloexec_from(3 + s.keep_fds);
	execve(s.path, (char **)s.argv.v, env);
	exec_failed(s.path, errno);
}

// omega_cinit runs first in every process of a binary that links nsexec
// with cgo. glibc passes (argc, argv, envp) to constructors.
__attribute__((constructor)) static void omega_cinit(int argc, char **argv, char **envp) {
	if (argc > 1 && argv && argv[1] && strcmp(argv[1], OMEGA_INIT_ARG) == 0)
		run_init(envp);
}
