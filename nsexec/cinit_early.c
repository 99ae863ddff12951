//go:build linux && cgo && !omega_goinit

// cinit_early.c starts the sandbox's init stage before the Go runtime
// starts, so that the kernel's namespace work overlaps with the Go
// runtime's start-up and the init stage needs no exec of its own
// (bench/PROFILE.md).
//
// The omega-run CLI's constructor (main package) calls omega_early_start
// with its argv; no other binary does. When the command line will most
// likely run a program in sandbox mode, it forks a helper that clones the
// init stage with CLONE_PARENT — so that it is the launcher's own child —
// into new user, mount, pid, ipc and uts namespaces, writes its id maps as
// nsexec's setNamespaces has them written, and exits. The init stage waits
// for the maps, then for its spec on a pipe, then runs omega_run_init.
// Go decides afterwards (sandbox/supervise_linux.go): it takes the init
// stage when the launch needs exactly these namespaces and nothing a clone
// must set up (a cgroup, a network namespace, another working directory)
// and sends the spec; otherwise it kills and reaps it and starts one the
// usual way. Guessing wrong costs time, never correctness. An init stage
// whose launcher died reads EOF on the pipe and exits quietly (or gets
// PDEATHSIG first). Whatever it decides, it then has the launcher's Go
// runtime start with one P (one_proc).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cinit_internal.h"

// The launcher's fds of an early start sit at or above this number, out
// of the way of what --preserve-fds passes on (3…).
#define EARLY_FD_MIN 100

static pid_t helper = -1;      // the helper, until reaped
static int spec_w = -1;        // the launcher's end of the init stage's spec socket
static int pid_r = -1;         // the helper sends the init stage's pid here
static pid_t ready_pid = -1;   // the init stage, once the helper said it may go on

// rename_self makes /proc/1/cmdline read as a re-executed init stage's
// would, not as the launcher's command line, which the program need not
// see (the strings lie next to each other, from argv[0] on).
static void rename_self(int argc, char **argv) {
	char *end = argv[argc - 1] + strlen(argv[argc - 1]);
	memset(argv[0], 0, end - argv[0]);
	static const char name[] = "omega-run-init\0__omega_run_init__";
	size_t room = end - argv[0]; // the last argument's NUL follows
	memcpy(argv[0], name, room < sizeof name ? room : sizeof name);
	prctl(PR_SET_NAME, "omega-run-init", 0, 0, 0);
}

// like_go gives the init stage the signal state a re-executed one gets
// from the launcher's fork and exec: every signal the Go runtime handles
// comes back to the default, ignored or not; SIGHUP and SIGINT, which Go
// leaves ignored when they were (and the launcher then does not catch),
// SIGTSTP, SIGTTIN and SIGTTOU, which Go leaves alone, stay as the caller
// set them, as do 32-34. The program gets every signal its caller ignored
// back from the spec (omega_ignore_signals in cinit.c). Go's threads also run
// with the signals it must see unblocked.
static void like_go(void) {
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		// Go's sigtable: SIGHUP and SIGINT (sigInstallGoHandler),
		// _SigDefault (TSTP, TTIN, TTOU) and _SigSetStack (32-34, which
		// glibc keeps for itself or musl uses).
		if (sig == SIGHUP || sig == SIGINT || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU ||
		    (sig >= 32 && sig <= 34) ||
		    sigaction(sig, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN)
			continue;
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
	static const int go_unblocks[] = {SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGSTKFLT,
	                                  SIGCHLD, SIGPROF, SIGURG, 32, 33, 34};
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof go_unblocks / sizeof *go_unblocks; i++)
		sigaddset(&set, go_unblocks[i]);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

// proc_is_ours tells whether /proc is this pid namespace's, as sandbox's
// usernsUnavailable asks: in another's (unshare -pf without --mount-proc)
// /proc/<pid> of the init stage names another process, whose id maps the
// helper would write (a process there fresh in its own user namespace
// takes them), or none. A ready start is what the launcher takes for
// the answer (omega_early_ready).
static int proc_is_ours(void) {
	char link[32], self[32];
	ssize_t n = readlink("/proc/self", link, sizeof link - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	snprintf(self, sizeof self, "%d", (int)getpid());
	return strcmp(link, self) == 0;
}

// run_helper clones the init stage, sends its pid, writes its maps and
// lets it go on. Its exit status says whether all of that worked.
static void __attribute__((noreturn)) run_helper(int spec[2], int ids[2], int back[2], uid_t uid, gid_t gid,
                                                 char **argv, int argc, char **envp) {
	// Only the launcher may hold the write end: EOF means it is gone.
	close(spec[1]);
	close(back[0]);
	if (!proc_is_ours())
		_exit(3);
	// A raw clone: the C library's fork cannot take namespace flags. The
	// child's C library still holds the helper's thread id (musl uses it
	// for raise and as the owner of stdio and mutex locks): nothing in
	// the init stage may rely on it — no raise or abort, no FILE or
	// error-checking mutex shared between its threads.
	pid_t c = (pid_t)syscall(SYS_clone,
	                         CLONE_PARENT | CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS,
	                         0, 0, 0, 0);
	if (c < 0)
		_exit(1);
	if (c == 0) {
		close(ids[1]);
		close(back[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		char b;
		ssize_t n;
		do
			n = read(ids[0], &b, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(125);
		close(ids[0]);
		// Only now: an unprivileged helper cannot open the id maps of a
		// process that is not dumpable. Nothing else exists in these
		// namespaces yet, and omega_run_init says it again first thing.
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		rename_self(argc, argv);
		like_go();
		omega_run_init(spec[0], 1, envp);
	}
	close(ids[0]);
	close(spec[0]);
	// The pid first, so that the launcher can always reap the init stage;
	// then one byte once it may go on. The launcher does not rely on this
	// process's exit status: a caller ignoring SIGCHLD has it reaped at once.
	int ok = write(back[1], &c, sizeof c) == sizeof c && omega_early_write_maps(c, uid, gid) == 0 && write(ids[1], "1", 1) == 1 &&
	         write(back[1], "1", 1) == 1;
	if (!ok)
		kill(c, SIGKILL);
	_exit(ok ? 0 : 2);
}

static void one_proc(int argc, char **argv, char **envp);

// move_high moves fd to EARLY_FD_MIN or above (close-on-exec); it leaves
// fd as it is when it cannot.
static int move_high(int fd) {
	int n = fcntl(fd, F_DUPFD_CLOEXEC, EARLY_FD_MIN);
	if (n >= 0)
		close(fd);
	return n < 0 ? fd : n;
}

static void early_start(int argc, char **argv, char **envp) {
	// The fds kept go at EARLY_FD_MIN and above, which a low fd limit
	// leaves no room for.
	struct rlimit nofile;
	if (!omega_early_wanted(argc, argv, envp) || getrlimit(RLIMIT_NOFILE, &nofile) < 0 ||
	    nofile.rlim_cur < EARLY_FD_MIN + 16)
		return;
	// The Go runtime opens /dev/null on fds 0-2 when they are closed, and
	// the usual init stage gets them so; here the pipes would take them.
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
			return;
	int spec[2], ids[2], back[2];
	// A socket, not a pipe: the spec goes in, the program's stops come
	// back (cinit_pid1.c's report_job).
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, spec) < 0)
		return;
	if (pipe2(ids, O_CLOEXEC) < 0) {
		close(spec[0]), close(spec[1]);
		return;
	}
	if (pipe2(back, O_CLOEXEC) < 0) {
		close(spec[0]), close(spec[1]), close(ids[0]), close(ids[1]);
		return;
	}
	// The init stage starts with the forwarded signals blocked, as
	// nsexec.StartBlocked starts it: a pid namespace's init drops them.
	// Raw calls: the C libraries' sigprocmask would leave out a caller's
	// block of 32-34 on the way back, and nsexec records this process's
	// mask for the program maybe only after (ignored_cgo_linux.go).
	uint64_t fwd = 0, old;
	for (int i = 0; i < OMEGA_NFORWARDED; i++)
		fwd |= (uint64_t)1 << (omega_forwarded[i] - 1);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &fwd, &old, sizeof old);
	uid_t uid = getuid();
	gid_t gid = getgid();
	pid_t h = fork();
	if (h == 0)
		run_helper(spec, ids, back, uid, gid, argv, argc, envp);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof old);
	close(spec[0]), close(ids[0]), close(ids[1]), close(back[1]);
	if (h < 0) {
		close(spec[1]), close(back[0]);
		return;
	}
	helper = h;
	spec_w = move_high(spec[1]);
	pid_r = move_high(back[0]);
	if (spec_w < EARLY_FD_MIN || pid_r < EARLY_FD_MIN)
		omega_early_drop(); // where --preserve-fds would find them
}

void omega_early_start(int argc, char **argv, char **envp) {
	// A re-executed init stage may come here before cinit (constructors
	// run in link order): its environment is the program's.
	if (argc > 1 && argv[1] && (strcmp(argv[1], OMEGA_INIT_ARG) == 0 || strcmp(argv[1], OMEGA_PTY_GUARD_ARG) == 0))
		return;
	early_start(argc, argv, envp);
	// After the fork: the init stage keeps the environment as it is.
	one_proc(argc, argv, envp);
}

// The launcher's Go runtime starts with one P: with two, it wakes spare
// threads for the goroutines it makes before main, and they compete with
// the init stage on the other CPU and with whatever else runs there
// (paired A/Bs, bench/PROFILE.md: sandbox −0.28 to −0.44 ms; rx and rwx
// up to −0.26 ms on a busy machine, nothing on a quiet one; −3.5 to −5 ms
// with Docker's profile to compile). A launcher has no work for a second P. The runtime reads
// GOMAXPROCS from the vectors on the stack, before any Go code runs, so
// the last entry of envp (the one the kernel passed, which Go reads) lends
// its slot until omega_early_env_restore gives it back; Go then unsets
// GOMAXPROCS and sets that variable again, last, where it was.
static char **lent_slot;
static char *lent_entry;

static void one_proc(int argc, char **argv, char **envp) {
	// argc 0 (an execve with an empty argv, before Linux 5.18): no name.
	if (argc < 1 || !argv[0] || envp != argv + argc + 1 || !envp[0])
		return;
	// The main package's test binary (NAME.test) has this constructor
	// too; go test runs and fuzzes in parallel, one worker per P.
	size_t n = strlen(argv[0]);
	if (n >= 5 && strcmp(argv[0] + n - 5, ".test") == 0)
		return;
	char **last = envp;
	while (last[1])
		last++;
	const char *eq = strchr(*last, '=');
	// Go's own variables configure this runtime; a key seen earlier would
	// be set where that one is, not where it was.
	if (!eq || eq == *last || strncmp(*last, "GO", 2) == 0)
		return;
	size_t klen = (size_t)(eq - *last) + 1;
	for (char **e = envp; e < last; e++)
		if (strncmp(*e, "GOMAXPROCS=", 11) == 0 || strncmp(*e, *last, klen) == 0)
			return;
	lent_slot = last;
	lent_entry = *last;
	*last = "GOMAXPROCS=1";
}

const char *omega_early_env_restore(void) {
	if (!lent_slot)
		return NULL;
	*lent_slot = lent_entry;
	lent_slot = NULL;
	return lent_entry;
}

static void reap(pid_t pid) {
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

// read_full reads n bytes, or fails.
static int read_full(int fd, void *buf, size_t n) {
	ssize_t got;
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got == (ssize_t)n ? 0 : -1;
}

// early_wait waits for the helper: afterwards ready_pid is the init stage
// ready to take, or -1 (none was started, or it is killed and reaped).
static void early_wait(void) {
	if (helper < 0)
		return;
	pid_t c = -1;
	char ok = 0;
	int have_pid = read_full(pid_r, &c, sizeof c) == 0;
	int ready = have_pid && read_full(pid_r, &ok, 1) == 0 && ok == '1';
	close(pid_r);
	pid_r = -1;
	// Reaped for good order only (ECHILD when the caller ignores SIGCHLD).
	while (waitpid(helper, NULL, 0) < 0 && errno == EINTR)
		;
	helper = -1;
	if (ready) {
		ready_pid = c;
		return;
	}
	if (have_pid) {
		kill(c, SIGKILL);
		reap(c);
	}
	close(spec_w);
	spec_w = -1;
}

int omega_early_ready(void) {
	early_wait();
	return ready_pid > 0;
}

int omega_early_take(int *pid, int *spec_fd) {
	early_wait();
	if (ready_pid <= 0)
		return 0;
	*pid = ready_pid;
	*spec_fd = spec_w;
	ready_pid = -1;
	spec_w = -1;
	return 1;
}

void omega_early_drop(void) {
	int pid, fd;
	if (!omega_early_take(&pid, &fd))
		return;
	close(fd);
	kill(pid, SIGKILL);
	reap(pid);
}
