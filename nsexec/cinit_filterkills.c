//go:build linux && cgo

// cinit_filterkills.c: a seccomp filter around omega-run that kills on
// calls omega-run cannot do without (systemd's SystemCallFilter=, which
// kills with SIGSYS unless SystemCallErrorNumber= is set) would kill it
// with nothing said: libseccomp-golang's package init calls seccomp(2)
// before main, every mode asks the kernel for Landlock's ABI, and the
// launcher starts its child with clone3 and pidfd_open. Before
// the Go runtime starts, and only under a filter, a child tries each
// with harmless arguments; one that kills it ends omega-run with 125 and
// a line naming the calls to allow. capset, which only the confined
// modes make (rwx does not), is tried too and only recorded
// (omega_capset_kills): the launcher refuses rx and sandbox mode there.

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cinit.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

// omega_cli is defined by the omega-run CLI only.
extern const int omega_cli __attribute__((weak));

// pidfd_open and clone3: the launcher makes both (its child's pidfd, Go's
// os/exec), and an allow-list from a systemd older than them kills on them.
// capset, last: systemd's SystemCallFilter=~@privileged kills on it.
static const char *const probed[] = {"seccomp",     "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
                                     "pidfd_open", "clone3",                  "capset"};
#define NPROBED (int)(sizeof probed / sizeof probed[0])
#define PROBED_CAPSET (NPROBED - 1)

int omega_capset_kills;

// try makes call i, failing harmlessly (bad fds, a query).
static void try(int i) {
	unsigned int action = SECCOMP_RET_ERRNO;
	switch (i) {
	case 0:
		syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
		break;
	case 1:
		syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
		break;
	case 2:
		syscall(SYS_landlock_add_rule, -1, LANDLOCK_RULE_PATH_BENEATH, NULL, 0);
		break;
	case 3:
		syscall(SYS_landlock_restrict_self, -1, 0);
		break;
	case 4:
		syscall(SYS_pidfd_open, -1, 0); // no pid: EINVAL
		break;
	case 5:
		syscall(SYS_clone3, NULL, 0); // no arguments: EINVAL
		break;
	case PROBED_CAPSET:
		syscall(SYS_capset, NULL, NULL); // no header: EFAULT
		break;
	}
}

// first_killed runs calls from..NPROBED-1 in a child, which reports each
// before it makes it: the call that killed it with SIGSYS, or -1.
static int first_killed(int from) {
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	// A SIGCHLD ignored by the caller (inherited across exec) would have
	// the child reaped with its status unread: default while waiting.
	struct sigaction dfl = {.sa_handler = SIG_DFL}, old;
	int restore = sigaction(SIGCHLD, &dfl, &old) == 0;
	pid_t c = fork();
	if (c == 0) {
		close(p[0]);
		for (int i = from; i < NPROBED; i++) {
			unsigned char b = (unsigned char)i;
			if (write(p[1], &b, 1) != 1)
				_exit(1);
			try(i);
		}
		_exit(0);
	}
	close(p[1]);
	int last = -1, st = 0;
	unsigned char b;
	while (c > 0 && read(p[0], &b, 1) == 1)
		last = b;
	close(p[0]);
	pid_t got = c > 0 ? waitpid(c, &st, 0) : -1;
	if (restore)
		sigaction(SIGCHLD, &old, NULL);
	if (got != c || c < 0)
		return -1;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS ? last : -1;
}

// filter_kills runs in the omega-run CLI (not in a program that embeds
// the sandbox package), but not as an init stage (its parent checked),
// nor inside another omega-run (whose
// filters never kill these: the fork is saved for each nested launch) and
// an elevated copy (OMEGA_CONSTRUCTOR: internal/secureexec refuses it).
static void filter_kills(int argc, char **argv, char **envp) {
	if (&omega_cli == NULL) // not the CLI: an embedding program (clifilter_linux.go)
		return;
	if (argc > 1 && argv[1] && (strcmp(argv[1], OMEGA_INIT_ARG) == 0 || strcmp(argv[1], OMEGA_PTY_GUARD_ARG) == 0))
		return;
	for (char **e = envp; e && *e; e++)
		if (strncmp(*e, "OMEGA_SANDBOX=", 14) == 0)
			return;
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 2)
		return;
	char names[256] = "";
	for (int from = 0, k; from < NPROBED && (k = first_killed(from)) >= 0; from = k + 1) {
		if (k == PROBED_CAPSET) {
			omega_capset_kills = 1;
			if (names[0] == 0)
				return; // rwx needs no capset: the launcher decides
		}
		size_t at = strlen(names);
		snprintf(names + at, sizeof names - at, "%s%s", at ? " " : "", probed[k]);
	}
	if (names[0] == 0)
		return;
	// A stderr nobody reads drops the line, as the Go side does: the
	// status stays 125, not SIGPIPE's.
	signal(SIGPIPE, SIG_IGN);
	dprintf(2, "omega-run: stopped: a seccomp filter around omega-run kills it on %s (systemd's SystemCallFilter=, "
	           "which kills unless SystemCallErrorNumber= is set): allow them there (SystemCallFilter=%s)\n", names, names);
	_exit(125);
}

OMEGA_CONSTRUCTOR_AT(omega_filter_kills, filter_kills, (200))
