//go:build linux && cgo && !omega_goinit

// cinit_broker_signal.c: a blocking connect the broker makes for the
// program ends, as the kernel's would, once a signal the calling thread
// does not block is pending (broker_signal_linux.go does the same in the
// Go init stage). The thread waits for the answer killably
// (WAIT_KILLABLE_RECV), and the kernel wakes no thread for a fatal signal
// that comes while a caught one is pending: without this, wget -T's
// SIGALRM never ran during the connect, and timeout(1)'s SIGTERM or
// Ctrl-C then left the program waiting too (for ever on a unix listener
// that never accepts). The answer is the kernel's own (ERESTARTSYS): the
// call is restarted where the handler has SA_RESTART and fails with EINTR
// where not; a TCP connect goes on meanwhile, as the kernel's does.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

// The kernel's ERESTARTSYS, never seen by the program: on the way back the
// kernel restarts the call (SA_RESTART; the filter brings it to the broker
// again) or makes it EINTR.
#define OMEGA_ERESTARTSYS 512

// How often a waiting connect looks for signals, in microseconds.
enum { signal_poll_us = 50000 };

// status_mask is the hexadecimal mask of a /proc/PID/status field.
static uint64_t status_mask(const char *status, const char *field) {
	const char *p = strstr(status, field);
	return p ? strtoull(p + strlen(field), NULL, 16) : 0;
}

// read_status is all of /proc/PID/status (NULL on failure; the caller
// frees it): its Groups: line, before the signal masks, alone runs past
// 4 KiB for a caller in some hundreds of groups.
static char *read_status(pid_t proc_pid) {
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/status", proc_pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t r = 1;
	while (buf && r != 0) {
		if (cap - n < 2) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				break;
			buf = more;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r > 0)
			n += (size_t)r;
		else if (r < 0 && errno != EINTR)
			break;
	}
	close(fd);
	if (buf && r != 0) { // out of memory, or a failed read
		free(buf);
		return NULL;
	}
	if (buf)
		buf[n] = 0;
	return buf;
}

// interrupted tells whether a signal interrupts the thread's connect: one
// pending for the thread alone, or for its process in two looks running
// (*shared: the last look's; another thread that takes it first would
// leave ERESTARTSYS to the program as errno 512, the kernel then seeing
// no signal to restart for).
static int interrupted(pid_t proc_pid, int *shared) {
	char *status = proc_pid > 0 ? read_status(proc_pid) : NULL;
	if (!status)
		return 0;
	uint64_t open_ = ~(status_mask(status, "\nSigBlk:") | status_mask(status, "\nSigIgn:"));
	uint64_t pending = status_mask(status, "\nSigPnd:"), shd = status_mask(status, "\nShdPnd:");
	free(status);
	if (pending & open_)
		return 1;
	int now = (shd & open_) != 0;
	int seen = *shared && now;
	*shared = now;
	return seen;
}

static int64_t now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int plain(int sock, const struct sockaddr *sa, socklen_t len) {
	return connect(sock, sa, len) < 0 ? -errno : 0;
}

// The sockets workers connect in slices, by inode, with their own
// SO_SNDTIMEO: two threads of the program may connect one socket at once
// (the kernel has both wait), and the second worker must not take the
// first's slice for the socket's own (it failed with EAGAIN after 50 ms)
// nor put it back. At most one per worker.
static struct slicing {
	dev_t dev;
	ino_t ino;
	struct timeval own;
	int users; // 0: a free entry
} slicing[OMEGA_BROKER_WORKERS];
static pthread_mutex_t slicing_mu = PTHREAD_MUTEX_INITIALIZER;

static struct slicing *find_slicing(const struct stat *st) {
	for (size_t i = 0; i < sizeof slicing / sizeof *slicing; i++)
		if (slicing[i].users > 0 && slicing[i].dev == st->st_dev && slicing[i].ino == st->st_ino)
			return &slicing[i];
	return NULL;
}

// begin_slices sets sock's SO_SNDTIMEO to a slice, where no other worker
// has, and gives the socket's own in *own: 0, or -1 where the connect is
// to be made plainly (the socket's own timeout is a slice or less, or a
// call failed).
static int begin_slices(int sock, const struct stat *st, struct timeval *own) {
	pthread_mutex_lock(&slicing_mu);
	struct slicing *e = find_slicing(st);
	if (e) {
		e->users++;
		*own = e->own;
		pthread_mutex_unlock(&slicing_mu);
		return 0;
	}
	for (size_t i = 0; !e && i < sizeof slicing / sizeof *slicing; i++)
		if (slicing[i].users == 0)
			e = &slicing[i];
	socklen_t ol = sizeof *own;
	struct timeval slice = {0, signal_poll_us};
	int r = -1;
	if (e && getsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, own, &ol) == 0) {
		int64_t us = (int64_t)own->tv_sec * 1000000 + own->tv_usec;
		if ((us == 0 || us > signal_poll_us) && setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &slice, sizeof slice) == 0) {
			*e = (struct slicing){st->st_dev, st->st_ino, *own, 1};
			r = 0;
		}
	}
	pthread_mutex_unlock(&slicing_mu);
	return r;
}

// end_slices puts the socket's own SO_SNDTIMEO back once no worker
// connects it any more.
static void end_slices(int sock, const struct stat *st) {
	pthread_mutex_lock(&slicing_mu);
	struct slicing *e = find_slicing(st);
	if (e && --e->users == 0)
		setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &e->own, sizeof e->own);
	pthread_mutex_unlock(&slicing_mu);
}

// timed_out is what connect(2) says where sock's own SO_SNDTIMEO passed.
static int timed_out(int sock) {
	int family = 0;
	socklen_t fl = sizeof family;
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &family, &fl) == 0 && family != AF_UNIX)
		return -EINPROGRESS;
	return -EAGAIN;
}

// omega_broker_sliced connects sock (the call's socket copy) to sa; 0 or
// -errno. Where the connect may wait (a stream or seqpacket socket) it is
// made in signal_poll_us slices of SO_SNDTIMEO, the socket's own put back
// after and honoured, and between slices it stops for a signal
// (interrupted) or for a call that went away (its thread was killed:
// nobody waits).
//
// A non-blocking socket's too: O_NONBLOCK is looked at only after a
// connect that says it would wait. The program shares the file
// description and may clear the flag at any moment: a look before made
// such a connect wait unsliced, for ever where the listener never
// accepts, in a worker and deaf to the program's signals.
//
// A slice that a signal to PID 1 ends (EINTR with a finite SO_SNDTIMEO,
// not a restart: a stop and continue of PID 1, a cgroup freeze) is one
// more slice: as the program's answer, EINTR told it that a connect it
// never made was under way, and Python then found the unconnected socket
// writable and said connected (broker_signal_linux.go's sliced, where the
// Go runtime's SIGURG did it).
int omega_broker_sliced(int listener, const struct omega_call *c, int sock, const struct sockaddr *sa, socklen_t len) {
	int type = 0;
	socklen_t tl = sizeof type, ol = sizeof(struct timeval);
	if (getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type == SOCK_DGRAM)
		return plain(sock, sa, len); // never waits
	struct stat st;
	struct timeval old = {0, 0};
	if (fstat(sock, &st) < 0)
		return plain(sock, sa, len);
	// Not begun: its own timeout is a slice or less; slices of that.
	int begun = begin_slices(sock, &st, &old) == 0;
	if (!begun && getsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &old, &ol) < 0)
		old = (struct timeval){0, 0};
	int64_t own = (int64_t)old.tv_sec * 1000000 + old.tv_usec;
	int64_t start = now_us();
	int first = 0, shared = 0, r;
	uint64_t id = c->id;
	for (int n = 0;; n++) {
		r = plain(sock, sa, len);
		if (n == 0)
			first = r;
		// Still waiting: EAGAIN (unix), EINPROGRESS then EALREADY (TCP).
		if (r != -EINTR && r != -EAGAIN && r != -EINPROGRESS && r != -EALREADY)
			break;
		int fl = fcntl(sock, F_GETFL);
		if (r != -EINTR && fl >= 0 && (fl & O_NONBLOCK))
			break; // a non-blocking socket's answer
		if (own > 0 && now_us() - start >= own) {
			// What the kernel says when SO_SNDTIMEO passes.
			r = first == -EINTR ? timed_out(sock) : first;
			break;
		}
		if (interrupted(c->proc_pid, &shared)) {
			r = -OMEGA_ERESTARTSYS;
			break;
		}
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0) {
			r = -ESRCH;
			break;
		}
	}
	if (begun)
		end_slices(sock, &st);
	return r;
}
