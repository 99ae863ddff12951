//go:build linux && cgo && !omega_goinit

// cinit_broker_pool.c: PID 1's side of the connect broker (cinit_broker.c
// decides and performs one call). PID 1's wait loop polls the listener
// next to its signals. It answers a call on a non-blocking socket itself
// and hands the others to a pool of threads, so that a blocking TCP
// connect holds up nobody else. Threads are made on demand and kept:
// making one per call cost ~300 µs a connect here. Where no thread can be
// had at all (a --pids or nproc limit counts them), PID 1 answers itself.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

// A cap on threads, so that a program looping on blocking connects cannot
// make PID 1 start thousands; further calls wait in the queue.
enum { max_workers = 32 };

struct broker {
	int listener;
	const struct spec *s;
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	pthread_attr_t attr;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct omega_call *head, *tail; // queued calls, under mu
	int idle, workers;              // under mu
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

static void answer(struct broker *b, struct omega_call *c) {
	reply(b, c->id, omega_broker_connect(b->s, c));
}

static struct omega_call *pop(struct broker *b) {
	struct omega_call *c = b->head;
	if (c && !(b->head = c->next))
		b->tail = NULL;
	return c;
}

static void *worker(void *arg) {
	struct broker *b = arg;
	for (;;) {
		pthread_mutex_lock(&b->mu);
		b->idle++;
		while (!b->head)
			pthread_cond_wait(&b->cv, &b->mu);
		b->idle--;
		struct omega_call *c = pop(b);
		pthread_mutex_unlock(&b->mu);
		answer(b, c);
		free(c);
	}
	return NULL;
}

// dispatch queues c for a worker, starting one when none is idle.
static void dispatch(struct broker *b, struct omega_call *c) {
	pthread_mutex_lock(&b->mu);
	c->next = NULL;
	if (b->tail)
		b->tail->next = c;
	else
		b->head = c;
	b->tail = c;
	pthread_t t;
	if (b->idle > 0) {
		pthread_cond_signal(&b->cv);
	} else if (b->workers < max_workers && pthread_create(&t, &b->attr, worker, b) == 0) {
		b->workers++;
	} else if (b->workers == 0) {
		// No thread at all: answer here (c is the only one queued).
		pop(b);
		pthread_mutex_unlock(&b->mu);
		answer(b, c);
		free(c);
		return;
	}
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
	                         .len = (uint32_t)b->req->data.args[2]};
	int r = omega_broker_take(b->listener, c), fl;
	if (r < 0) {
		reply(b, c->id, r);
		free(c);
	} else if ((fl = fcntl(c->sock, F_GETFL)) >= 0 && (fl & O_NONBLOCK)) {
		answer(b, c); // cannot block: no hand-over
		free(c);
	} else {
		dispatch(b, c);
	}
	return 0;
done:
	close(b->listener);
	return -1;
}
