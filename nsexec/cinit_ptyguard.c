//go:build linux && cgo && !omega_goinit

// cinit_ptyguard.c: --pty's guardian (sandbox/ptyguard_linux.go, which
// says what it does) in C, before the Go runtime starts: its start costs
// an exec, not the runtime's and every package's init. argv[2] is the
// size of omega-run's messages: 'R' and the settings, or 'C' and none.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cinit.h"

enum { GUARD_TERM = 3, GUARD_CONN = 4, GUARD_MAX = 256 };

// read_full reads n bytes, 0 at the stream's end or on an error.
static int read_full(int fd, unsigned char *p, size_t n) {
	while (n > 0) {
		ssize_t got = read(fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return 0;
		p += got, n -= (size_t)got;
	}
	return 1;
}

static void pty_guard(int argc, char **argv, char **envp) {
	(void)envp;
	if (argc < 3 || !argv[1] || strcmp(argv[1], OMEGA_PTY_GUARD_ARG) != 0)
		return;
	long size = strtol(argv[2], NULL, 10);
	if (size < 2 || size > GUARD_MAX)
		_exit(0);
	static const int ignored[] = {SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGTTIN};
	for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
		signal(ignored[i], SIG_IGN);
	static const unsigned char ready = 1;
	if (write(GUARD_CONN, &ready, 1) != 1)
		_exit(0);
	unsigned char rec[GUARD_MAX], saved[GUARD_MAX];
	int armed = 0;
	while (read_full(GUARD_CONN, rec, (size_t)size)) {
		armed = rec[0] == 'R';
		memcpy(saved, rec + 1, (size_t)size - 1);
	}
	pid_t fg;
	if (armed && (ioctl(GUARD_TERM, TIOCGPGRP, &fg) == 0 ? fg == getpgrp() : errno == ENOTTY))
		ioctl(GUARD_TERM, TCSETS, saved); // the kernel's struct termios, as Go's TCGETS got it
	_exit(0);
}

OMEGA_CONSTRUCTOR(omega_pty_guard, pty_guard)
