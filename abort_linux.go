//go:build linux && cgo

package main

/*
// The Go runtime starts its threads through runtime/cgo, which calls
// abort() when pthread_create fails for good; the runtime turns that
// SIGABRT into a goroutine dump and exit status 2, which a caller cannot
// tell from the program's own 2, and which hides the cause. It happens to
// a caller at its process limit or whose address-space limit (ulimit -v)
// leaves no room for a thread's stack, and, with glibc, behind a filter that
// refuses clone3 with EPERM (glibc falls back to clone only on ENOSYS).
// Linking with --wrap sends this binary's calls here instead: the cause in
// one line, and 125, omega-run's own failure. Every other abort() linked
// in (the C library's assert, libseccomp's) ends the same way, which is
// what it means: omega-run failed.
#cgo LDFLAGS: -Wl,--wrap=pthread_create -Wl,--wrap=abort

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// What the last pthread_create returned (0: it worked): runtime/cgo
// retries EAGAIN before it gives up, so abort() reads the last try, and
// an abort after a thread that did start names no thread error.
static volatile int omega_thread_err;

int omega_thread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *); // sysmon_linux.go

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	int err = omega_thread_create(t, a, fn, arg);
	omega_thread_err = err;
	return err;
}

static void omega_say(const char *s) { (void)!write(2, s, strlen(s)); }

// omega_stack_kib returns the size in KiB of a thread's default stack when
// it cannot be mapped now, and 0 when it can: pthread_create's EAGAIN
// means either a process limit or a stack that found no room (glibc sizes
// it by ulimit -s), and only this tells them apart.
static size_t omega_stack_kib(void)
{
	pthread_attr_t a;
	size_t size = 0;
	if (pthread_attr_init(&a) != 0)
		return 0;
	pthread_attr_getstacksize(&a, &size);
	pthread_attr_destroy(&a);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p != MAP_FAILED) {
		munmap(p, size);
		return 0;
	}
	return errno == ENOMEM ? size / 1024 : 0;
}

void __wrap_abort(void)
{
	int err = omega_thread_err;
	omega_say("omega-run: stopped: ");
	size_t kib = err == EAGAIN ? omega_stack_kib() : 0;
	if (kib != 0) {
		char line[320];
		snprintf(line, sizeof line, "the Go runtime cannot start a thread: its %zu-KiB stack finds no room under the "
			 "address-space limit (ulimit -v, systemd's LimitAS=; ulimit -s sizes the stack): raise it, and limit "
			 "the program with --rlimit as=… instead\n", kib);
		omega_say(line);
	} else if (err == EAGAIN)
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
