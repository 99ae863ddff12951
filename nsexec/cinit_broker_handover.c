//go:build linux && cgo && !omega_goinit

// cinit_broker_handover.c: the connect broker's listener (cinit_broker.c)
// goes from the program's process, which installs the filter that makes
// it, to PID 1, which answers the calls.

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

// omega_broker_child runs in the program's process before execve: it
// installs the program's filter with the broker's rules (nsexec.Broker)
// and a listener, and hands the listener to PID 1 over sock. 0 when it
// did; -1 after a warning when the kernel has no user notification (the
// caller then installs the plain profile), which --fail-closed refuses.
int omega_broker_child(const struct spec *s, int sock) {
	struct sock_fprog prog = {omega_bpf_insns("connect broker: seccomp(NEW_LISTENER)", s->broker_len), s->broker_bpf};
	unsigned long flags = s->seccomp_flags | SECCOMP_FILTER_FLAG_NEW_LISTENER;
	long fd = -1;
	const char *what = "seccomp(NEW_LISTENER)";
	// The broker connects a copy of the program's socket, taken with
	// pidfd_getfd: before Linux 5.6 every connect would fail. Told by the
	// kernel's version, not by a call, which a filter around omega-run
	// might answer by killing the process.
	struct utsname u;
	int major = 0, minor = 0;
	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2 && (major < 5 || (major == 5 && minor < 6)))
		what = "pidfd_getfd, which came with Linux 5.6", errno = ENOSYS;
	else if ((fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog)) < 0 &&
	         errno == EINVAL) // before Linux 5.19: signals may then restart a brokered connect
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (fd < 0) {
		int e = errno;
		char msg[512];
		snprintf(msg, sizeof msg,
		         "connect broker unavailable (%s: %s): unix sockets the host binds "
		         "after the start outside /tmp, /run and the writable set stay reachable",
		         what, omega_errstr(e));
		if (s->flags & F_FAIL_CLOSED)
			omega_die(125, "--fail-closed: %s", msg);
		omega_warn(msg);
		close(sock);
		return -1;
	}
	char cbuf[CMSG_SPACE(sizeof(int))];
	memset(cbuf, 0, sizeof cbuf);
	char byte = 0;
	struct iovec iov = {&byte, 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	int lfd = (int)fd;
	memcpy(CMSG_DATA(cm), &lfd, sizeof lfd);
	// Without PID 1 holding the listener, every connect would fail with
	// ENOSYS: better not to start at all.
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != 1)
		omega_dief(errno, "connect broker: handing the listener to PID 1");
	close(lfd);
	close(sock);
	return 0;
}

// omega_broker_recv runs in PID 1: the listener, or -1 when the program
// sent none (it failed, or runs without a broker after a warning).
int omega_broker_recv(int sock) {
	char cbuf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = {&byte, 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	ssize_t n;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	close(sock);
	struct cmsghdr *cm = n == 1 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(cm), sizeof fd);
	return fd;
}
