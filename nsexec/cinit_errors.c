//go:build linux && cgo && !omega_goinit

// cinit_errors.c: how the C init stage reports. Fatal errors print one
// line "omega-run: init: <what>: <error>" and exit; they and the warnings
// follow the parent's log format (warn_linux.go).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cinit_internal.h"

// ---------------------------------------------------------------- errors

int omega_log_json;

static void log_line(const char *level, const char *tag, const char *json_prefix, const char *msg);

#include "cinit_errtab.h"

// omega_errstr is the text Go gives errno e, not the C library's (musl's
// and glibc's differ for half of them).
const char *omega_errstr(int e) {
	static char buf[32];
	if (e > 0 && (size_t)e < sizeof go_errstr / sizeof *go_errstr && go_errstr[e])
		return go_errstr[e];
	snprintf(buf, sizeof buf, "errno %d", e);
	return buf;
}

// OMEGA_CRLF_HINT is exechint_linux.go's crlfHint.
#define OMEGA_CRLF_HINT                                                                                  \
	" (the file exists: its #! line ends in a carriage return (Windows line endings), so its interpreter " \
	"is %s\\r, which does not exist: convert the file with dos2unix or sed -i 's/\\r$//')"

// omega_exec_hint explains an ENOENT (e) from execve of a file that
// exists (Go's execHint): its #! interpreter, or the ELF loader it names,
// is missing; and an ENOEXEC of text without a #! line, which shells run
// with sh and execve does not. out is "" otherwise.
void omega_exec_hint(const char *path, int e, char *out, size_t size) {
	out[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (e == ENOEXEC) {
		if (n > 0 && !(n >= 2 && buf[0] == '#' && buf[1] == '!') && !(n >= 4 && memcmp(buf, "\177ELF", 4) == 0) &&
		    memchr(buf, 0, (size_t)n) == NULL)
			snprintf(out, size, " (a script without a #! line: start it with #!/bin/sh, or run it with sh)");
		return;
	}
	if (n >= 2 && buf[0] == '#' && buf[1] == '!') {
		buf[n] = 0;
		// Read as the kernel reads it (binfmt_script): a carriage return
		// is part of the name, and a Windows line ending makes it
		// "/bin/sh\r", which the plain ENOENT does not show.
		char *interp = buf + 2 + strspn(buf + 2, " \t");
		interp[strcspn(interp, " \t\n")] = 0;
		if (!*interp || access(interp, F_OK) == 0 || errno != ENOENT)
			return;
		size_t len = strlen(interp);
		int crlf = interp[len - 1] == '\r';
		if (crlf)
			interp[len - 1] = 0;
		for (char *c = interp; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?'; // the file's bytes go to the user's terminal
		if (crlf)
			snprintf(out, size, OMEGA_CRLF_HINT, interp);
		else
			snprintf(out, size, " (the file exists: its interpreter %s does not)", interp);
	} else if (n >= 4 && memcmp(buf, "\177ELF", 4) == 0) {
		snprintf(out, size, " (the file exists: the ELF loader it names does not)");
	}
}

void __attribute__((noreturn, format(printf, 2, 3))) omega_die(int code, const char *fmt, ...) {
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	omega_die_line(code, "init", msg);
}

// omega_die_line writes the last line, "omega-run: tag: msg" ("omega-run:
// msg" with tag NULL, as a failed execve's, which reads as rx's), and
// exits with code (warn_linux.go's fatal).
void __attribute__((noreturn)) omega_die_line(int code, const char *tag, const char *msg) {
	// The last line: a stderr nobody reads drops it (as the Go side
	// does) and the status stays code, where a process that is not its
	// pid namespace's init (the child that execs the program) died of
	// SIGPIPE.
	signal(SIGPIPE, SIG_IGN);
	char prefix[64] = "";
	if (tag)
		snprintf(prefix, sizeof prefix, "%s: ", tag);
	log_line("error", tag, prefix, msg);
	_exit(code);
}

// omega_dief reports a failed call (what, from fmt) with errno e and exits 125.
void __attribute__((noreturn, format(printf, 2, 3))) omega_dief(int e, const char *fmt, ...) {
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	omega_die(125, "%s: %s", what, omega_errstr(e));
}

// The mount steps return -1 and leave their error here, so that the
// caller can fall back (EPERM) instead of failing.
char omega_step_msg[1024];
int omega_step_err;

int __attribute__((format(printf, 2, 3))) omega_step_fail(int e, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(omega_step_msg, sizeof omega_step_msg, fmt, ap);
	va_end(ap);
	omega_step_err = e;
	return -1;
}

static int utf8_len(const unsigned char *s);
static unsigned bidi_control(const unsigned char *c, int n);

// omega_put_json writes s escaped for the inside of a JSON string as the Go
// side's lines are (encoding/json, then internal/termsafe's Encoded):
// HTML characters, U+2028/2029, DEL, C1 controls, bidi and zero-width characters as
// \uXXXX, each byte that is not UTF-8 as \ufffd, which keeps the line
// valid JSON and nothing in it raw that a terminal acts on.
void omega_put_json(FILE *f, const char *s) {
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = *p < 0x80 ? 1 : utf8_len(p);
		unsigned r = bidi_control(p, n);
		if (n == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
			fprintf(f, "\\u%04x", p[1]);
		else if (n == 3 && p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
			fprintf(f, "\\u202%c", p[2] == 0xa8 ? '8' : '9');
		else if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] == 0xbd)
			fputs("\\ufffd", f);
		else if (r)
			fprintf(f, "\\u%04x", r);
		else if (n > 1)
			fwrite(p, 1, (size_t)n, f);
		else {
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
				if (*p < 0x20 || *p == 0x7f)
					fprintf(f, "\\u%04x", *p);
				else
					fputc(*p, f);
			}
		}
		p += n;
	}
}

// omega_warn writes one warning line in the parent's log format (warn_linux.go).
void omega_warn(const char *msg) { log_line("warning", "warning", "", msg); }

// log_line writes one line in the parent's log format: "omega-run: tag:
// msg" ("omega-run: msg" with tag NULL), or with --log-format json a logrus-style object at level whose
// msg is json_prefix followed by msg.
// utf8_len is the length of the well-formed UTF-8 sequence at s (RFC
// 3629: no overlong forms, surrogates or code points past U+10FFFF, as
// Go's decoder), 0 when there is none. A NUL ends it, as any byte that is
// no continuation does.
static int utf8_len(const unsigned char *s) {
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
	if (n == 0)
		return 0;
	// The second byte's range depends on the first (RFC 3629, section 4).
	unsigned char lo = 0x80, hi = 0xbf;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

// bidi_control is the code point of the bidirectional formatting
// character (ALM, LRM, RLM, LRE…RLO, LRI…PDI) or zero-width one (ZWSP,
// ZWNJ, ZWJ, WJ, BOM) that the n-byte UTF-8 sequence at c is, or 0: the
// ones termsafe's invisible escapes.
static unsigned bidi_control(const unsigned char *c, int n) {
	if (n == 2 && c[0] == 0xd8 && c[1] == 0x9c)
		return 0x061c;
	if (n == 3 && c[0] == 0xef && c[1] == 0xbb && c[2] == 0xbf)
		return 0xfeff;
	if (n != 3 || c[0] != 0xe2)
		return 0;
	unsigned r = 0x2000 | (unsigned)(c[1] & 0x3f) << 6 | (c[2] & 0x3f);
	if ((r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || r == 0x2060 || (r >= 0x2066 && r <= 0x2069))
		return r;
	return 0;
}

// omega_put_term_safe writes msg escaped as Go's internal/termsafe does:
// C0 and C1 controls, DEL, bidirectional formatting and zero-width
// characters as \uXXXX, bytes that are not UTF-8 as \xNN. Paths in a
// message may be a confined program's choice, whose escape sequences
// could erase or forge a warning on the terminal, bidi controls reorder
// what it shows and zero-width ones hide in a name.
void omega_put_term_safe(FILE *f, const char *msg) {
	for (const unsigned char *c = (const unsigned char *)msg; *c;) {
		int n = *c < 0x80 ? 1 : utf8_len(c);
		if (n == 0)
			fprintf(f, "\\x%02x", *c), n = 1;
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\u%04x", *c);
		else if (n == 2 && c[0] == 0xc2 && c[1] < 0xa0)
			fprintf(f, "\\u%04x", c[1]);
		else if (n == 3 && c[0] == 0xef && c[1] == 0xbf && c[2] == 0xbd)
			fputs("\\ufffd", f); // U+FFFD, which Go's decoder also yields for bad bytes
		else if (bidi_control(c, n))
			fprintf(f, "\\u%04x", bidi_control(c, n));
		else
			fwrite(c, 1, n, f);
		c += n;
	}
}

static void log_line(const char *level, const char *tag, const char *json_prefix, const char *msg) {
	// One write(2) of the whole line, however long (a fallback's list
	// of what it leaves open can be kilobytes): lines do not interleave.
	char *line = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&line, &size);
	if (!f) {
		dprintf(2, "omega-run: %s%s%s\n", tag ? tag : "", tag ? ": " : "", msg); // a fatal error must not go unsaid
		return;
	}
	if (!omega_log_json) {
		// Control characters escaped, as main's terminalSafe does: paths
		// in a message may be a confined program's choice.
		fprintf(f, "omega-run: %s%s", tag ? tag : "", tag ? ": " : "");
		omega_put_term_safe(f, msg);
		fputc('\n', f);
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
		fprintf(f, "{\"level\":\"%s\",\"msg\":\"", level);
		omega_put_json(f, json_prefix);
		omega_put_json(f, msg);
		fprintf(f, "\",\"time\":\"%s%s\"}\n", ts, zone);
	}
	if (fclose(f) == 0 && size > 0)
		(void)!write(2, line, size);
	else
		dprintf(2, "omega-run: %s%s%s\n", tag ? tag : "", tag ? ": " : "", msg);
	free(line);
}
