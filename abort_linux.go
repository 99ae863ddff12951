//go:build linux && cgo

package main

/*
// The Go runtime starts its threads through runtime/cgo, which calls
// abort() when pthread_create fails for good; the runtime turns that
// SIGABRT into a goroutine dump and exit status 2, which a caller cannot
// tell from the program's own 2, and which hides the cause. It happens to
// a caller at its process limit, and, with glibc, behind a filter that
// refuses clone3 with EPERM (glibc falls back to clone only on ENOSYS).
// Linking with --wrap sends this binary's calls here instead: the cause in
// one line, and 125, omega-run's own failure. Every other abort() linked
// in (the C library's assert, libseccomp's) ends the same way, which is
// what it means: omega-run failed.
#cgo LDFLAGS: -Wl,--wrap=pthread_create -Wl,--wrap=abort

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// What the last pthread_create returned (0: it worked): runtime/cgo
// retries EAGAIN before it gives up, so abort() reads the last try, and
// an abort after a thread that did start names no thread error.
static volatile int omega_thread_err;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	int err = __real_pthread_create(t, a, fn, arg);
	omega_thread_err = err;
	return err;
}

static void omega_say(const char *s) { (void)!write(2, s, strlen(s)); }

void __wrap_abort(void)
{
	int err = omega_thread_err;
	omega_say("omega-run: stopped: ");
	if (err == EAGAIN)
		omega_say("the Go runtime cannot start a thread: this user is at its process limit (ulimit -u, "
			  "systemd's LimitNPROC=) or its cgroup at its pids limit (TasksMax=)\n");
	else if (err == EPERM)
		omega_say("the Go runtime cannot start a thread: a seccomp filter around omega-run refuses clone3 "
			  "with EPERM (answering ENOSYS lets the C library fall back to clone)\n");
	else if (err != 0)
		omega_say("the Go runtime cannot start a thread (the line above says why)\n");
	else
		omega_say("aborted (the line above says why)\n");
	_exit(125);
}
*/
import "C"
