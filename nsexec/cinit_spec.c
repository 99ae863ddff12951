//go:build linux && cgo && !omega_goinit

// cinit_spec.c: the C init stage reads its spec from fd 3 and decodes the
// wire format of wire_linux.go into struct spec (cinit_internal.h);
// omega_spec_describe dumps a decoded spec for the test that compares this
// decoder with the Go one.

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cinit_internal.h"

// ------------------------------------------------------------------ spec

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

void *omega_alloc(uint64_t n, size_t size) {
	void *p = calloc(n + 1, size);
	if (!p)
		omega_die(125, "decode spec: out of memory");
	return p;
}

// rd_count reads an element count that the rest of the buffer could
// hold at size bytes or more each (so a corrupt one allocates nothing big).
static uint32_t rd_count(struct cursor *c, size_t size) {
	uint32_t n = rd_u32(c);
	if (n > (uint64_t)(c->end - c->p) / size)
		c->bad = 1;
	return c->bad ? 0 : n;
}

static void rd_strs(struct cursor *c, struct strs *s) {
	s->n = rd_count(c, 5); // every string takes 5 bytes at least
	s->v = omega_alloc(s->n, sizeof *s->v);
	for (uint32_t i = 0; i < s->n; i++)
		s->v[i] = rd_str(c);
}

// rd_prog reads a BPF program (bytes), copied because the kernel wants
// the instructions aligned.
static void rd_prog(struct cursor *c, struct sock_filter **bpf, uint32_t *len) {
	uint32_t n = rd_u32(c);
	const unsigned char *b = take(c, n);
	*bpf = omega_alloc(n / sizeof(struct sock_filter) + 1, sizeof(struct sock_filter));
	if (b)
		memcpy(*bpf, b, n);
	*len = n;
}

// describe_prog ends a line with the instructions of a program.
static void describe_prog(FILE *f, const struct sock_filter *p, uint32_t len) {
	for (uint32_t i = 0; i < len / sizeof *p; i++)
		fprintf(f, " %04x:%02x:%02x:%08x", p[i].code, p[i].jt, p[i].jf, p[i].k);
	fputc('\n', f);
}

static void rd_user(struct cursor *c, struct spec *s) {
	s->uid = rd_u32(c);
	s->gid = rd_u32(c);
	s->ngroups = rd_count(c, 4);
	s->groups = omega_alloc(s->ngroups, sizeof *s->groups);
	for (uint32_t i = 0; i < s->ngroups; i++)
		s->groups[i] = rd_u32(c);
}

static void rd_limits(struct cursor *c, struct spec *s) {
	s->nlimits = rd_count(c, 5 + 4 + 8 + 8 + 4); // the least a limit takes
	s->limits = omega_alloc(s->nlimits, sizeof *s->limits);
	for (uint32_t i = 0; i < s->nlimits; i++) {
		struct limit *l = &s->limits[i];
		l->name = rd_str(c);
		l->resource = (int32_t)rd_u32(c);
		l->soft = rd_u64(c);
		l->hard = rd_u64(c);
		l->keep = rd_u32(c);
		if (l->keep & ~3u) // 1 soft, 2 hard: nothing else is written
			c->bad = 1;
	}
}

// rd_landlock reads the ruleset plan; the rules in omega-run's terms
// before it are the Go init stage's.
static void rd_landlock(struct cursor *c, struct spec *s) {
	struct strs skip;
	for (int i = 0; i < 4; i++) // Landlock.ReadExec, Writable, Devices, Streams
		rd_strs(c, &skip);
	s->ll.handled_access_fs = rd_u64(c);
	s->ll.handled_access_net = rd_u64(c);
	s->ll.scoped = rd_u64(c);
	s->ll_flags = rd_u32(c);
	s->nrules = rd_count(c, 5 + 8 + 4); // the least a rule takes
	s->rules = omega_alloc(s->nrules, sizeof *s->rules);
	for (uint32_t i = 0; i < s->nrules; i++) {
		s->rules[i].path = rd_str(c);
		s->rules[i].access = rd_u64(c);
		s->rules[i].missing = rd_u32(c);
	}
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
	if (s->keep_fds > INT32_MAX) // the encoder refuses it
		c.bad = 1;
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
		rd_strs(&c, &s->pin);
	}
	if (s->flags & F_USER)
		rd_user(&c, s);
	rd_limits(&c, s);
	rd_landlock(&c, s);
	if (s->flags & F_SECCOMP) {
		rd_prog(&c, &s->bpf, &s->bpf_len);
		s->seccomp_flags = rd_u32(&c);
	}
	if (s->flags & F_BROKER) {
		rd_prog(&c, &s->broker_bpf, &s->broker_len);
		rd_prog(&c, &s->sup_bpf, &s->sup_len);
		rd_strs(&c, &s->sockets);
	}
	rd_strs(&c, &skip); // Warnings
	s->ignored = rd_u64(&c);
	s->blocked = rd_u64(&c);
	return c.bad || c.p != c.end ? -1 : 0;
}

static void describe_strs(FILE *f, const char *name, const struct strs *l) {
	for (uint32_t i = 0; i < l->n; i++)
		fprintf(f, "%s %s\n", name, l->v[i]);
}

// omega_spec_describe is for the test that holds this decoder against the
// Go one (cinit_linux_test.go's describe prints the same text).
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
		describe_strs(f, "pin", &s.pin);
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
		describe_prog(f, s.bpf, s.bpf_len);
	}
	if (s.flags & F_BROKER) {
		fprintf(f, "broker %u", s.broker_len);
		describe_prog(f, s.broker_bpf, s.broker_len);
		if (s.sup_len) {
			fprintf(f, "supervisor %u", s.sup_len);
			describe_prog(f, s.sup_bpf, s.sup_len);
		}
		describe_strs(f, "socket", &s.sockets);
	}
	fprintf(f, "ignored %#llx\n", (unsigned long long)s.ignored);
	fprintf(f, "blocked %#llx\n", (unsigned long long)s.blocked);
	fclose(f);
	return out;
}

// read_pipe reads the spec from a pipe up to EOF: the launcher starts the
// init stage while it still computes the spec, and writes it when ready.
// An empty pipe means the launcher gave up (it reported why): exit quietly.
static unsigned char *read_pipe(int fd, size_t *len) {
	size_t cap = 1 << 16, off = 0;
	unsigned char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			omega_die(125, "read spec: out of memory");
		ssize_t n = read(fd, buf + off, cap - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			omega_die(125, "read spec: %zu bytes, %s", off, omega_errstr(errno));
		if (n == 0)
			break;
		off += n;
		if (off == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (off == 0)
		_exit(125);
	*len = off;
	return buf;
}

// read_file reads the spec from the memfd the library path fills first.
static unsigned char *read_file(int fd, off_t size) {
	unsigned char *buf = omega_alloc(size, 1);
	for (off_t off = 0; off < size;) {
		ssize_t n = pread(fd, buf + off, size - off, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			omega_die(125, "read spec: %lld of %lld bytes, %s", (long long)off, (long long)size,
			          n < 0 ? omega_errstr(errno) : "EOF");
		off += n;
	}
	return buf;
}

// omega_read_spec reads the spec from fd and closes it, but for a socket
// (the launcher's: it shuts its side down after the spec), which it
// returns: the program's stops go back on it (cinit_pid1.c's
// report_job). Else -1.
int omega_read_spec(int fd, struct spec *s) {
	struct stat st;
	if (fstat(fd, &st) < 0)
		omega_die(125, "spec fd %d: %s", fd, omega_errstr(errno));
	size_t len = st.st_size;
	int stream = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
	unsigned char *buf = stream ? read_pipe(fd, &len) : read_file(fd, st.st_size);
	int back = S_ISSOCK(st.st_mode) ? fd : -1;
	if (back < 0)
		close(fd);
	if (spec_decode(buf, len, s) < 0)
		omega_die(125, "decode spec: malformed");
	return back;
}
