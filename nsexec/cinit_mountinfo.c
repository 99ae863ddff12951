//go:build linux && cgo && !omega_goinit

// cinit_mountinfo.c: one line of /proc/self/mountinfo, read as
// internal/mountinfo.Parse reads it. The kernel writes the fields one
// space apart and escapes (\NNN) only space, tab, newline and backslash
// in a path: \v, \f and \r stay as they are, which scanf's %s and strtok
// on whitespace would cut a field at, and an empty field (the source of
// `mount -t tmpfs "" /x`, a FUSE mount's fsname=) is two spaces, which
// strtok would drop.

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cinit_internal.h"

// unescape undoes mountinfo's octal escapes (\040 for a space) in place,
// as mountinfo.Unescape; -1 where one is a NUL, which no path holds.
static int unescape(char *s) {
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			if (*out++ == 0)
				return -1;
			s += 3;
		} else
			*out++ = *s;
	}
	*out = 0;
	return 0;
}

// field cuts the next field off *p (at the next space) and returns it,
// "" for an empty one; NULL past the last.
static char *field(char **p) {
	char *f = *p;
	if (f == NULL)
		return NULL;
	char *sp = strchr(f, ' ');
	if (sp)
		*sp++ = 0;
	*p = sp;
	return f;
}

// parse_id is strconv.ParseUint(s, 10, 64): digits only, no overflow.
static int parse_id(const char *s, unsigned long long *id) {
	*id = 0;
	if (*s == 0)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || *id > (UINT64_MAX - (unsigned)(*s - '0')) / 10)
			return -1;
		*id = *id * 10 + (unsigned)(*s - '0');
	}
	return 0;
}

// omega_mountinfo_line splits line, one line of mountinfo (its newline
// there or not), in place into m: "id parent major:minor root point
// options [optional...] - fstype source super". -1 for a line it cannot
// read, which a caller that must not guess fails on.
int omega_mountinfo_line(char *line, struct omega_mountinfo *m) {
	size_t n = strlen(line);
	if (n > 0 && line[n - 1] == '\n')
		line[n - 1] = 0;
	char *p = line, *f[6], *sep;
	for (int i = 0; i < 6; i++) // a "-" among them: the separator comes early
		if ((f[i] = field(&p)) == NULL || strcmp(f[i], "-") == 0)
			return -1;
	while ((sep = field(&p)) != NULL && strcmp(sep, "-") != 0)
		; // the optional fields: shared:N, master:N, ...
	*m = (struct omega_mountinfo){.dev = f[2], .root = f[3], .point = f[4], .options = f[5]};
	m->fstype = field(&p);
	m->source = field(&p);
	m->super = field(&p);
	if (sep == NULL || m->super == NULL || parse_id(f[0], &m->id) < 0)
		return -1;
	return unescape(m->root) < 0 || unescape(m->point) < 0 ? -1 : 0;
}
