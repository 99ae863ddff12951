//go:build linux && cgo && !omega_goinit

// cinit_terminal.c: the program's controlling terminal — given up where
// nothing else keeps TIOCSTI from it, or --pty's pseudo-terminal taken.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cinit_internal.h"

// omega_leave_terminal gives up the controlling terminal where no PID 1 starts
// the program in a session of its own and no seccomp filter refuses
// TIOCSTI (noctty_linux.go's leaveTerminal, which says why).
void omega_leave_terminal(void) {
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return; // no controlling terminal to leave
	struct sigaction ign = {.sa_handler = SIG_IGN}, hup, cont;
	int leader = getsid(0) == getpid();
	if (leader) {
		sigaction(SIGHUP, &ign, &hup);
		sigaction(SIGCONT, &ign, &cont);
	}
	int r = ioctl(fd, TIOCNOTTY), e = errno;
	if (leader) {
		sigaction(SIGHUP, &hup, NULL);
		sigaction(SIGCONT, &cont, NULL);
	}
	close(fd);
	if (r < 0)
		omega_dief(e, "ioctl(TIOCNOTTY)");
}

// omega_take_terminal starts a session of this process's own with the
// first of its fds 0–2 that is a terminal, the launcher's
// pseudo-terminal (--pty), as its controlling terminal: the program's
// job control and terminal settings are then that terminal's, not the
// caller's (noctty_linux.go's takeTerminal). PID 1 leads the session, so
// that the program's process group has a parent in it and is no orphan:
// the kernel drops a Ctrl-Z (SIGTSTP) to an orphaned one.
void omega_take_terminal(void) {
	if (setsid() < 0)
		omega_dief(errno, "--pty: setsid");
	int e = ENOTTY;
	for (int fd = 0; fd <= 2; fd++) {
		if (ioctl(fd, TIOCSCTTY, 0) == 0)
			return;
		if (errno != ENOTTY)
			e = errno;
	}
	omega_dief(e, "--pty: ioctl(TIOCSCTTY)");
}

// omega_foreground puts the program (PID 1's child) in a process group
// of its own in the foreground of the terminal omega_take_terminal took,
// as a shell starts a job; SIGTTOU, which a background group's
// tcsetpgrp gets, is held meanwhile.
void omega_foreground(void) {
	sigset_t ttou, old;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	if (setpgid(0, 0) < 0)
		omega_dief(errno, "--pty: setpgid");
	int fd = 0;
	while (fd <= 2 && tcsetpgrp(fd, getpid()) < 0)
		fd++;
	if (fd > 2)
		omega_dief(errno, "--pty: tcsetpgrp");
	sigprocmask(SIG_SETMASK, &old, NULL);
}
