//go:build linux && cgo

package nsexec

/*
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

// The Go runtime's AllThreadsSyscall refuses cgo builds, which may have
// threads it does not know of; this one signals each thread listed in
// /proc/self/task, as the C library's set*id do, and the handler runs the
// calls there (raw system calls: async-signal-safe).

#define OMEGA_AT_MAX 512

static int omega_at_ops, omega_at_last, omega_at_err, omega_at_nacked;
static pid_t omega_at_acked[OMEGA_AT_MAX];

// omega_at_apply runs ops on the calling thread; 0 or an errno. The
// bounding set's capabilities still in it only: a thread whose set is
// empty already needs no CAP_SETPCAP.
static int omega_at_apply(int ops, int last) {
	if (ops & 1) {
		for (int c = 0; c <= last; c++) {
			long in = syscall(SYS_prctl, PR_CAPBSET_READ, c, 0, 0, 0);
			if (in == 1 && syscall(SYS_prctl, PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno != EINVAL)
				return errno;
		}
	}
	if (ops & 2) {
		struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
		struct __user_cap_data_struct data[2] = {{0, 0, 0}, {0, 0, 0}};
		if (syscall(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
			return errno;
		if (syscall(SYS_capset, &hdr, data) != 0)
			return errno;
		if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			return errno;
	}
	return 0;
}

static void omega_at_handler(int sig) {
	(void)sig;
	int saved = errno;
	int err = omega_at_apply(__atomic_load_n(&omega_at_ops, __ATOMIC_SEQ_CST), __atomic_load_n(&omega_at_last, __ATOMIC_SEQ_CST));
	if (err)
		__atomic_store_n(&omega_at_err, err, __ATOMIC_SEQ_CST);
	int i = __atomic_fetch_add(&omega_at_nacked, 1, __ATOMIC_SEQ_CST);
	if (i < OMEGA_AT_MAX)
		__atomic_store_n(&omega_at_acked[i], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	errno = saved;
}

static int omega_at_in(const pid_t *tids, int n, pid_t tid) {
	for (int i = 0; i < n; i++)
		if (__atomic_load_n(&tids[i], __ATOMIC_SEQ_CST) == tid)
			return 1;
	return 0;
}

// omega_at_signal is a real-time signal this thread does not block: the
// Go runtime's threads all start with the mask this process started with
// and leave the real-time signals as they found them.
static int omega_at_signal(void) {
	sigset_t cur;
	if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0)
		return -1;
	for (int sig = SIGRTMAX; sig > SIGRTMIN; sig--)
		if (!sigismember(&cur, sig))
			return sig;
	return -1;
}

// omega_at_wait waits up to 2 s for each of the n threads signalled to
// answer or be gone. 0 or an errno.
static int omega_at_wait(pid_t pid, const pid_t *sent, int n) {
	struct timespec pause = {0, 50000};
	for (int round = 0; round < 40000; round++) {
		int missing = 0;
		int nacked = __atomic_load_n(&omega_at_nacked, __ATOMIC_SEQ_CST);
		if (nacked > OMEGA_AT_MAX)
			nacked = OMEGA_AT_MAX;
		for (int i = 0; i < n && !missing; i++)
			if (!omega_at_in(omega_at_acked, nacked, sent[i]) &&
			    !(round % 64 == 63 && syscall(SYS_tgkill, pid, sent[i], 0) != 0 && errno == ESRCH))
				missing = 1;
		if (!missing)
			return 0;
		if (round < 1000)
			sched_yield();
		else
			nanosleep(&pause, NULL);
	}
	return ETIMEDOUT;
}

// omega_at_tid is the thread id of /proc/self/task's entry name in this
// process's pid namespace: the name itself, or with nspid (a /proc of
// another namespace: the host's, where the mounts were refused) the last
// field of its NSpid line. 0: unknown.
static pid_t omega_at_tid(const char *name, int nspid) {
	pid_t tid = (pid_t)atoi(name);
	if (!nspid || tid <= 0)
		return tid;
	char path[96], buf[4096];
	snprintf(path, sizeof path, "/proc/self/task/%s/status", name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	char *p = strstr(buf, "\nNSpid:");
	if (!p)
		return 0;
	char *end = strchr(p + 1, '\n');
	if (end)
		*end = 0;
	char *last = strrchr(p, '\t');
	return last ? (pid_t)atoi(last + 1) : 0;
}

// omega_all_threads runs ops on this thread and signals every other,
// listing /proc/self/task again until a listing shows no thread not yet
// done: a thread started meanwhile by one not yet done is then done too.
// 0, an errno, or -1: /proc/self/task does not list this thread.
static int omega_all_threads(int ops, int last) {
	int sig = omega_at_signal();
	if (sig < 0)
		return EAGAIN;
	pid_t self = (pid_t)syscall(SYS_gettid), pid = getpid();
	static pid_t done[OMEGA_AT_MAX], sent[OMEGA_AT_MAX];
	int ndone = 0, err = 0, nspid = 0;
	__atomic_store_n(&omega_at_ops, ops, __ATOMIC_SEQ_CST);
	__atomic_store_n(&omega_at_last, last, __ATOMIC_SEQ_CST);
	__atomic_store_n(&omega_at_err, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&omega_at_nacked, 0, __ATOMIC_SEQ_CST);
	struct sigaction sa = {0}, old;
	sa.sa_handler = omega_at_handler;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigfillset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) != 0)
		return errno;
	err = omega_at_apply(ops, last);
	for (int listing = 0; listing < 100 && !err; listing++) {
		DIR *d = opendir("/proc/self/task");
		if (!d) {
			err = errno;
			break;
		}
		int nsent = 0, seen_self = 0;
		struct dirent *e;
		while ((e = readdir(d)) && !err) {
			pid_t tid = omega_at_tid(e->d_name, nspid);
			if (tid == self)
				seen_self = 1;
			if (tid <= 0 || tid == self || omega_at_in(done, ndone, tid))
				continue;
			if (nsent == OMEGA_AT_MAX || ndone + nsent >= OMEGA_AT_MAX)
				err = E2BIG;
			else if (syscall(SYS_tgkill, pid, tid, sig) == 0)
				sent[nsent++] = tid;
			else if (errno != ESRCH)
				err = errno;
		}
		closedir(d);
		if (!err && !seen_self && nsent == 0 && !nspid) {
			nspid = 1; // names of another pid namespace: again, by NSpid
			continue;
		}
		if (!err && !seen_self)
			err = -1;
		if (err || nsent == 0)
			break;
		err = omega_at_wait(pid, sent, nsent);
		for (int i = 0; i < nsent; i++)
			done[ndone++] = sent[i];
	}
	sigaction(sig, &old, NULL);
	if (!err)
		err = __atomic_load_n(&omega_at_err, __ATOMIC_SEQ_CST);
	return err;
}
*/
import "C"

import (
	"errors"
	"syscall"
)

// boundsOtherThreads: one signal a thread empties its bounding set too.
const boundsOtherThreads = true

// onAllThreads runs ops on every thread of this process; last is the
// last capability.
func onAllThreads(ops, last int) error {
	switch rc := C.omega_all_threads(C.int(ops), C.int(last)); {
	case rc == 0:
		return nil
	case rc < 0:
		return errors.New("/proc/self/task does not list this process's threads")
	default:
		return syscall.Errno(rc)
	}
}
