//go:build linux && cgo && !omega_goinit

// cinit_broker_pool.c: PID 1's side of the connect broker (cinit_broker.c
// decides and performs one call). PID 1's wait loop polls the listener
// next to its signals and hands each call to a pool of threads: PID 1's
// own thread must never block, and a blocking TCP connect must hold up
// nobody else. Threads are made on demand and kept: making one per call
// cost ~300 µs a connect here.

#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

// A cap on threads, so that a program looping on blocking connects cannot
// make PID 1 start thousands; further calls wait in the queue.
enum { max_workers = OMEGA_BROKER_WORKERS };

struct broker {
	int listener;
	const struct spec *s;
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	pthread_attr_t attr;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct omega_call *head, *tail; // under mu, like the counts
	int queued, idle, workers;
};

static void reply(struct broker *b, uint64_t id, int r) {
	struct seccomp_notif_resp *resp = calloc(1, b->sizes.seccomp_notif_resp);
	if (!resp)
		return; // the call then waits until the program ends
	resp->id = id;
	resp->error = r;
	// ENOENT: the call went away (its thread was killed); nothing to do.
	ioctl(b->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	free(resp);
}

// answer decides and performs one call, in a worker.
static void answer(struct broker *b, struct omega_call *c) {
	int r = omega_broker_take(b->listener, c);
	if (r == 0)
		r = omega_broker_connect(b->listener, c);
	else if (c->sock >= 0)
		close(c->sock);
	reply(b, c->id, r);
}

static struct omega_call *pop(struct broker *b) {
	struct omega_call *c = b->head;
	if (c && !(b->head = c->next))
		b->tail = NULL;
	b->queued--;
	return c;
}

static void *worker(void *arg) {
	struct broker *b = arg;
	for (;;) {
		pthread_mutex_lock(&b->mu);
		while (!b->head) {
			b->idle++;
			pthread_cond_wait(&b->cv, &b->mu);
			b->idle--;
		}
		struct omega_call *c = pop(b);
		pthread_mutex_unlock(&b->mu);
		answer(b, c);
		free(c);
	}
	return NULL;
}

// start_worker adds a thread to the pool; b->mu is held.
static int start_worker(struct broker *b) {
	pthread_t t;
	if (b->workers >= max_workers || pthread_create(&t, &b->attr, worker, b) != 0)
		return -1;
	b->workers++;
	return 0;
}

// dispatch queues c. A waiting worker takes it, or a new one; with the
// pool at its cap it waits its turn. With no worker at all (none could be
// started) it fails with EAGAIN: PID 1's own thread never connects, since
// a connect can block (the program can clear O_NONBLOCK at any moment).
static void dispatch(struct broker *b, struct omega_call *c) {
	pthread_mutex_lock(&b->mu);
	c->next = NULL;
	if (b->tail)
		b->tail->next = c;
	else
		b->head = c;
	b->tail = c;
	b->queued++;
	if (b->idle < b->queued && start_worker(b) < 0 && b->workers == 0) {
		pop(b);
		pthread_mutex_unlock(&b->mu);
		reply(b, c->id, -EAGAIN);
		free(c);
		return;
	}
	pthread_cond_signal(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

// omega_broker_new sets up the broker for PID 1's wait loop, which polls
// omega_broker_fd next to its signals and calls omega_broker_handle.
struct broker *omega_broker_new(const struct spec *s, int listener) {
	struct broker *b = omega_alloc(1, sizeof *b);
	b->listener = listener;
	b->s = s;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &b->sizes) < 0)
		omega_dief(errno, "connect broker: SECCOMP_GET_NOTIF_SIZES");
	if (b->sizes.seccomp_notif < sizeof(struct seccomp_notif))
		b->sizes.seccomp_notif = sizeof(struct seccomp_notif);
	if (b->sizes.seccomp_notif_resp < sizeof(struct seccomp_notif_resp))
		b->sizes.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
	b->req = omega_alloc(1, b->sizes.seccomp_notif);
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	pthread_attr_init(&b->attr);
	pthread_attr_setdetachstate(&b->attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&b->attr, 256 << 10); // virtual: touched as used
	// One worker from the start; without it every call fails (EAGAIN).
	if (start_worker(b) < 0)
		omega_warn("connect broker: no thread for it (a --pids or nproc limit?): the program's connect() calls "
		           "fail with EAGAIN");
	return b;
}

int omega_broker_fd(const struct broker *b) { return b->listener; }

// omega_broker_handle takes one call off the listener. It returns -1, and
// closes the listener, once no process uses the filter any more or the
// listener fails: calls then fail with ENOSYS rather than hang. (RECV
// alone does not block once the program is gone: it fails with ENOENT at
// once, which is why the caller polls.)
int omega_broker_handle(struct broker *b, short revents) {
	if (revents & (POLLHUP | POLLERR | POLLNVAL))
		goto done;
	memset(b->req, 0, b->sizes.seccomp_notif);
	if (ioctl(b->listener, SECCOMP_IOCTL_NOTIF_RECV, b->req) < 0) {
		if (errno == EINTR || errno == ENOENT)
			return 0; // the caller went away
		goto done;
	}
	struct omega_call *c = malloc(sizeof *c);
	if (!c) {
		reply(b, b->req->id, -ENOMEM);
		return 0;
	}
	*c = (struct omega_call){.id = b->req->id,
	                         .tid = (pid_t)b->req->pid,
	                         .fd = (int)b->req->data.args[0],
	                         .addr = b->req->data.args[1],
	                         .len = (uint32_t)b->req->data.args[2],
	                         .indirect = b->req->data.nr == 102 && (b->req->data.arch == AUDIT_ARCH_I386 ||
	                                                                b->req->data.arch == AUDIT_ARCH_ARM),
	                         .sock = -1};
	dispatch(b, c);
	return 0;
done:
	close(b->listener);
	return -1;
}
