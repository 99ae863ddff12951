//go:build linux && cgo && !omega_goinit

// cinit_broker.c: the connect(2) broker of sandbox mode on kernels without
// Landlock's RESOLVE_UNIX (nsexec.Broker). The program runs under a seccomp
// filter that hands each connect to PID 1 (SECCOMP_RET_USER_NOTIF). PID 1
// shares the program's namespaces, ids and Landlock domain; for each call
// it reads the address from the program's memory once, and
//
//   - for a unix socket path, opens the path (O_PATH) in the program's view
//     (through /proc/<tid>/root or /cwd), allows the socket only when it
//     lies on a writable mount (the writable set, the private /tmp) or is
//     one of the spec's sockets (same device and inode), and connects the
//     program's socket (a pidfd_getfd copy) through /proc/self/fd/<opened>,
//     so what is connected is exactly what was checked;
//   - for anything else (abstract and unnamed unix, inet, …), connects the
//     program's socket to the address it read, with PID 1's credentials and
//     Landlock domain, which are the program's.
//
// The program's memory is never read twice and its call never continues
// (SECCOMP_USER_NOTIF_FLAG_CONTINUE would let it rewrite the address after
// the check). PID 1's wait loop receives the calls and threads answer them
// (cinit_broker_pool.c).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

// System call numbers and flags newer than some C libraries' headers.
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define OMEGA_PIDFD_THREAD O_EXCL

// ------------------------------------------------------------ PID 1

// refused_once says, the first time for each call, that a filter or LSM
// refused pidfd_open, pidfd_getfd or process_vm_readv (or the kernel has
// no CONFIG_CROSS_MEMORY_ATTACH): the broker cannot take the socket or
// its address, and that connect fails. The pool's threads may all get
// here at once.
static void refused_once(const char *call, int e) {
	static int said[3];
	int i = strcmp(call, "pidfd_open") == 0 ? 0 : strcmp(call, "pidfd_getfd") == 0 ? 1 : 2;
	if (__atomic_fetch_add(&said[i], 1, __ATOMIC_RELAXED))
		return;
	char msg[384];
	snprintf(msg, sizeof msg,
	         "connect broker: %s: %s: unix connects of that process fail (a filter or LSM around omega-run "
	         "refuses the call%s)",
	         call, omega_errstr(e), i ? ", or the process made itself non-dumpable, as ssh-agent does" : "");
	omega_warn(msg);
}

// read_addr copies the address from the calling thread once; 0 or -errno.
static int read_addr(const struct omega_call *c, struct sockaddr_storage *ss) {
	memset(ss, 0, sizeof *ss);
	if (c->len == 0)
		return 0;
	struct iovec local = {ss, c->len}, remote = {(void *)(uintptr_t)c->addr, c->len};
	ssize_t n = process_vm_readv(c->tid, &local, 1, &remote, 1, 0);
	if (n < 0)
		return errno == ESRCH || errno == EPERM || errno == ENOSYS ? -errno : -EFAULT;
	return (size_t)n == c->len ? 0 : -EFAULT;
}

// tid_pidfd opens a pidfd for the calling thread (PIDFD_THREAD, Linux
// 6.9), or for its thread group where only that works; pidfd_getfd
// reads the fd table, which the threads share.
static int tid_pidfd(pid_t tid) {
	int fd = syscall(SYS_pidfd_open, tid, OMEGA_PIDFD_THREAD);
	if (fd >= 0 || errno != EINVAL)
		return fd;
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", tid);
	FILE *f = fopen(path, "re");
	if (!f) {
		errno = ESRCH; // gone: not a refusal
		return -1;
	}
	pid_t tgid = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	if (tgid < 0) {
		errno = ESRCH;
		return -1;
	}
	return syscall(SYS_pidfd_open, tgid, 0);
}

// foreign_proc: /proc is another pid namespace's than PID 1's (the
// host's, kept where a fresh one was refused: fresh_proc). A tid from the
// listener, which is PID 1's namespace's, then names another task there,
// or none: paths through /proc take the pidfd's number there instead.
static int foreign_proc;

// fdinfo_pid is the number of a pidfd's task in /proc's pid namespace,
// which its fdinfo gives (Pid:), or 0. The caller has checked that the
// pidfd names the calling thread (or its thread group, before Linux 6.9).
static pid_t fdinfo_pid(int pidfd) {
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	int pid = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid > 0 ? pid : 0;
}

// The sockets reachable wherever they lie (the spec's), by device and
// inode, recorded before the program starts: looked up later, their paths
// could lead through a symlink the program planted to any socket.
struct dev_ino {
	dev_t dev;
	ino_t ino;
	int fd;           // held for the run (omega_broker_held)
	const char *path; // where it was allowed (replaced_allowed)
};
static struct dev_ino *allow_list;
static uint32_t allow_n;

// open_no_symlinks opens path O_PATH without following any symlink on the
// way (RESOLVE_NO_SYMLINKS; the parent sends canonical paths), or only
// the last one where the kernel lacks openat2.
static int open_no_symlinks(const char *path) {
	struct {
		uint64_t flags, mode, resolve;
	} how = {O_PATH | O_CLOEXEC, 0, 0x04 /* RESOLVE_NO_SYMLINKS */};
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
	if (fd < 0 && errno == ENOSYS)
		fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	return fd;
}

// omega_broker_prepare records the spec's sockets; PID 1 calls it before
// the program starts.
void omega_broker_prepare(const struct spec *s) {
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof self - 1);
	if (n > 0) {
		self[n] = 0;
		foreign_proc = atoi(self) != getpid();
	}
	omega_broker_net_prepare(s);
	allow_list = omega_alloc(s->sockets.n, sizeof *allow_list);
	for (uint32_t i = 0; i < s->sockets.n; i++) {
		struct stat st;
		int fd = open_no_symlinks(s->sockets.v[i]);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
			allow_list[allow_n++] = (struct dev_ino){st.st_dev, st.st_ino, fd, strdup(s->sockets.v[i])};
		else
			close(fd);
	}
}

// omega_broker_held puts in fds the fds that hold the allowed sockets
// open for the run (O_CLOEXEC: not the program's) and returns their
// number: removed on the host, a socket's inode number would go to the
// next file made there (ext4 gives a freed one out at once), and a host
// socket bound then would pass as allowed. fds has room for the spec's
// sockets.
uint32_t omega_broker_held(int *fds) {
	for (uint32_t i = 0; i < allow_n; i++)
		fds[i] = allow_list[i].fd;
	return allow_n;
}

// allowed tells whether the opened socket may be reached: it lies on a
// writable mount (mounts outside the writable set are read-only, and the
// program can change no mount: Landlock refuses it), or it is one of the
// spec's sockets.
static int allowed(int opath, const struct stat *st) {
	struct statvfs vfs;
	if (fstatvfs(opath, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY))
		return 1;
	for (uint32_t i = 0; i < allow_n; i++)
		if (allow_list[i].dev == st->st_dev && allow_list[i].ino == st->st_ino)
			return 1;
	return 0;
}

// replaced_allowed tells whether the refused socket lies where an allowed
// one lay at the start: the host replaced it since (a service's restart
// binds anew), and only a new launch reaches the new one.
static int replaced_allowed(int opath) {
	char self[32], at[PATH_MAX];
	snprintf(self, sizeof self, "/proc/self/fd/%d", opath);
	ssize_t n = readlink(self, at, sizeof at - 1);
	if (n <= 0)
		return 0;
	at[n] = 0;
	for (uint32_t i = 0; i < allow_n; i++)
		if (allow_list[i].path && strcmp(allow_list[i].path, at) == 0)
			return 1;
	return 0;
}

// report_refusal warns about the first refusals; a program that retries
// in a loop must not flood the terminal.
static void report_refusal(const char *path, int opath) {
	static int reported;
	enum { most = 3 };
	int n = __atomic_fetch_add(&reported, 1, __ATOMIC_RELAXED);
	if (n >= most)
		return;
	// The program chose the path: escape what a terminal would act on.
	char shown[4 * sizeof ((struct sockaddr_un *)0)->sun_path + 1], *o = shown;
	for (const unsigned char *c = (const unsigned char *)path; *c && o < shown + sizeof shown - 5; c++)
		o += *c < 0x20 || *c >= 0x7f ? sprintf(o, "\\x%02x", *c) : sprintf(o, "%c", *c);
	*o = 0;
	char msg[sizeof shown + 320];
	snprintf(msg, sizeof msg,
	         "refused connect() to %s: %s%s", shown,
	         replaced_allowed(opath) ? "the --allow-socket socket was replaced on the host since the launch started; "
	                                   "start the launch again to reach the new one"
	                  : "a socket outside the writable set (allow it with --allow-socket)",
	         n == most - 1 ? "; further refusals are not reported" : "");
	omega_warn(msg);
}

// connect_path connects sock to a unix socket path as the program sees it;
// 0 or -errno.
static int connect_path(int listener, const struct omega_call *c, int sock, const char *path) {
	char where[PATH_MAX];
	if (c->proc_pid <= 0)
		return -ESRCH;
	if (path[0] == '/')
		snprintf(where, sizeof where, "/proc/%d/root%s", c->proc_pid, path);
	else
		snprintf(where, sizeof where, "/proc/%d/cwd/%s", c->proc_pid, path);
	int opath;
	do // a FUSE lookup that a stop of PID 1 ended (omega_broker_sliced)
		opath = open(where, O_PATH | O_CLOEXEC);
	while (opath < 0 && errno == EINTR);
	if (opath < 0)
		return -errno;
	struct stat st;
	int r = 0;
	if (fstat(opath, &st) < 0)
		r = -errno;
	else if (!S_ISSOCK(st.st_mode))
		r = -ECONNREFUSED; // what connect(2) says for a file that is no socket
	else if (!allowed(opath, &st)) {
		report_refusal(path, opath);
		r = -EACCES;
	}
	if (r == 0) {
		struct sockaddr_un via = {.sun_family = AF_UNIX};
		snprintf(via.sun_path, sizeof via.sun_path, "/proc/self/fd/%d", opath);
		r = omega_broker_sliced(listener, c, sock, (struct sockaddr *)&via, sizeof via);
	}
	close(opath);
	return r;
}

// omega_broker_take gets what a call needs from the program: its address,
// read once into c->ss, and its socket (a pidfd_getfd copy, in c->sock,
// which the caller closes). 0 or -errno, which is then the answer.
// listener is the filter's, to check that the call is still pending.
int omega_broker_take(int listener, struct omega_call *c) {
	c->sock = -1;
	int pidfd = tid_pidfd(c->tid);
	if (pidfd < 0 && (errno == ENOSYS || errno == EPERM || errno == EACCES || errno == EINVAL)) {
		// Not the thread's end: a filter or LSM around omega-run.
		int e = errno;
		refused_once("pidfd_open", e);
		return -e;
	}
	if (pidfd < 0)
		return errno == EMFILE || errno == ENFILE || errno == ENOMEM ? -errno : -ESRCH;
	// Still the thread that called (not a recycled pid): from here the
	// pidfd pins it.
	uint64_t id = c->id;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0) {
		close(pidfd);
		return -ESRCH;
	}
	int r = 0;
	c->proc_pid = foreign_proc ? fdinfo_pid(pidfd) : c->tid;
	if (c->indirect) {
		// socketcall(SYS_CONNECT, args): args points at three 32-bit
		// words, fd, address and length.
		uint32_t a[3];
		struct iovec local = {a, sizeof a}, remote = {(void *)(uintptr_t)c->addr, sizeof a};
		if (process_vm_readv(c->tid, &local, 1, &remote, 1, 0) != sizeof a) {
			close(pidfd);
			return -EFAULT;
		}
		c->fd = (int)a[0], c->addr = a[1], c->len = a[2];
	}
	c->sock = syscall(SYS_pidfd_getfd, pidfd, c->fd, 0);
	if (c->sock < 0)
		r = -errno;
	if (c->sock < 0 && errno != EBADF && errno != ESRCH)
		refused_once("pidfd_getfd", errno);
	close(pidfd);
	if (r < 0)
		return r;
	// connect(2)'s own order: the fd, then the address.
	struct stat st;
	if (fstat(c->sock, &st) < 0 || !S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	if (c->len > sizeof c->ss)
		return -EINVAL;
	if ((r = read_addr(c, &c->ss)) < 0) {
		if (r == -EPERM || r == -ENOSYS)
			refused_once("process_vm_readv", -r);
		return r;
	}
	// And still the same thread after the read: the memory was its own.
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0)
		return -ESRCH;
	return 0;
}

// omega_broker_connect performs a taken call, closes its socket copy and
// returns 0 or -errno (a blocking one in slices: cinit_broker_signal.c).
int omega_broker_connect(int listener, struct omega_call *c) {
	int r;
	struct sockaddr_un *un = (struct sockaddr_un *)&c->ss;
	size_t off = offsetof(struct sockaddr_un, sun_path);
	if (omega_broker_other_net(c->sock)) {
		r = -EACCES; // as Landlock's TCP rules answer
	} else if (c->ss.ss_family == AF_UNIX && c->len > sizeof *un) {
		r = -EINVAL; // as unix_validate_addr says
	} else if (c->ss.ss_family == AF_UNIX && c->len > off && un->sun_path[0] != 0) {
		char path[sizeof c->ss];
		memcpy(path, un->sun_path, c->len - off);
		path[c->len - off] = 0;
		r = connect_path(listener, c, c->sock, path);
	} else {
		r = omega_broker_sliced(listener, c, c->sock, (struct sockaddr *)&c->ss, c->len);
	}
	close(c->sock);
	c->sock = -1;
	return r;
}
