//go:build linux && cgo

package main

/*
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "nsexec/cinit.h"

// The Go runtime's monitor thread (sysmon) sleeps 20 µs at a time, then
// wakes to check on the other threads, for the first milliseconds of a
// process and again after any activity; the kernel rounds each sleep up
// by the thread's timer slack (50 µs unless the caller set another). On a
// busy machine each wake-up preempts the launcher's own thread: 30-40 of
// them per sandbox launch, two context switches each (bench/PROFILE.md).
// The CLI gives that one thread a slack of 1 ms, so that it wakes about
// once a millisecond: the runtime starts it first of all its threads (in
// runtime.main, before any init), and the kernel copies the creating
// thread's slack to a new one. Every other thread, and so every process
// omega-run starts, keeps the caller's slack: threads sysmon makes get it
// back too. Only in the CLI that armed it, not in an init stage or a
// fork of the CLI (the early start's).
#define OMEGA_SYSMON_SLACK 1000000L

static pid_t sysmon_pid;
static long caller_slack;
static int sysmon_started;

static void omega_sysmon_arm(int argc, char **argv, char **envp) {
	(void)envp;
	if (argc > 1 && argv[1] && strcmp(argv[1], OMEGA_INIT_ARG) == 0)
		return;
	long slack = prctl(PR_GET_TIMERSLACK);
	if (slack <= 0)
		return;
	caller_slack = slack;
	sysmon_pid = getpid();
}

OMEGA_CONSTRUCTOR(omega_cli_sysmon, omega_sysmon_arm)

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// omega_thread_create is pthread_create (abort_linux.go's wrapper) with
// the new thread's slack chosen: 1 ms for the runtime's first, the
// caller's for the others, whichever thread creates them.
int omega_thread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg) {
	if (!sysmon_pid || getpid() != sysmon_pid)
		return __real_pthread_create(t, a, fn, arg);
	long want = caller_slack;
	if (!__atomic_exchange_n(&sysmon_started, 1, __ATOMIC_SEQ_CST) && want < OMEGA_SYSMON_SLACK)
		want = OMEGA_SYSMON_SLACK;
	long have = prctl(PR_GET_TIMERSLACK);
	if (have <= 0 || have == want)
		return __real_pthread_create(t, a, fn, arg);
	prctl(PR_SET_TIMERSLACK, want);
	int err = __real_pthread_create(t, a, fn, arg);
	prctl(PR_SET_TIMERSLACK, have);
	return err;
}
*/
import "C"
