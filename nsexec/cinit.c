//go:build linux && cgo && !omega_goinit

// cinit.c is omega-run's init stage in C. The parent re-executes
// /proc/self/exe with argv[1] == "__omega_run_init__" (nsexec.InitArg);
// the constructor below recognises that before the Go runtime starts, so
// the init stage never pays for a second Go runtime, dynamic load of Go
// code, package inits and threads (bench/PROFILE.md). It does exactly what
// the Go init stage (init_linux.go and the files it calls) does, in the
// same order, and never returns: it execs the program, or, as PID 1, exits
// with the program's status. Every other process returns at once.
//
// The parent computed everything (spec_linux.go); the spec arrives at fd 3
// in the wire format documented in wire_linux.go, with the Landlock
// ruleset precomputed for this kernel (landlock.Plan). The C files only
// perform system calls: this one runs the steps in order, and
// cinit_internal.h lists the others. Failures print one line
// "omega-run: init: <what>: <error>" and exit 125 (126/127 for exec).
// Error texts are Go's (cinit_errtab.h) so both stages read alike.

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cinit_internal.h"

// report_fd is the launcher's spec socket, kept for the reports of the
// program's stops (-1: none).
static int report_fd = -1;

// ----------------------------------------------------------------- run

static void __attribute__((noreturn)) exec_failed(const char *path, int e) {
	char hint[512] = "";
	if (e == ENOENT || e == ENOEXEC)
		omega_exec_hint(path, e, hint, sizeof hint);
	omega_die(e == ENOENT ? 127 : 126, "exec %s: %s%s", path, omega_errstr(e), hint);
}

// ignore_signals gives the program, right before its execve, the signals
// its caller left ignored (nsexec.IgnoredAtStart), as an exec in place
// keeps them; before the mask is restored, so that none of them can end
// the program in between.
static void ignore_signals(const struct spec *s) {
	for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
		if (s->ignored & (uint64_t)1 << (sig - 1))
			signal(sig, SIG_IGN);
}

// set_program_mask gives the program, right before its execve, its
// caller's signal mask (nsexec.BlockedAtStart): not the forwarded signals
// the launcher blocked for this process, nor what the launcher's Go
// runtime unblocked. The raw call: the C libraries would leave out 32-34.
static void set_program_mask(const struct spec *s) {
	uint64_t mask = s->blocked;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, NULL, sizeof mask);
}

// The signals PID 1 forwards (pid1_linux.go's Forwarded), and SIGCHLD.
const int omega_forwarded[OMEGA_NFORWARDED] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
                                               SIGUSR2, SIGWINCH, SIGCONT, SIGABRT, SIGALRM};
#define forwarded omega_forwarded

// next_signal waits for a signal on sfd (a signalfd of the blocked set)
// while it serves the connect broker *b (NULL once it is done).
static int next_signal(int sfd, struct broker **b) {
	for (;;) {
		struct pollfd p[2] = {{.fd = sfd, .events = POLLIN}, {.fd = *b ? omega_broker_fd(*b) : -1, .events = POLLIN}};
		if (poll(p, 2, -1) < 0)
			return -1;
		if (p[1].revents && omega_broker_handle(*b, p[1].revents) < 0)
			*b = NULL;
		if (!(p[0].revents & POLLIN))
			continue;
		struct signalfd_siginfo si;
		ssize_t n = read(sfd, &si, sizeof si);
		if (n == sizeof si)
			return (int)si.ssi_signo;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
	}
}

// set_service_pids points an existing LISTEN_PID (Spec.ListenPID) and
// WATCHDOG_PID (Spec.WatchdogPID) at this process, the program's; it adds
// neither.
static void set_service_pids(const struct spec *s, char **env) {
	static char listen[32], watchdog[32];
	for (; *env; env++)
		if ((s->flags & F_LISTEN_PID) && strncmp(*env, "LISTEN_PID=", 11) == 0) {
			snprintf(listen, sizeof listen, "LISTEN_PID=%d", (int)getpid());
			*env = listen;
		} else if ((s->flags & F_WATCHDOG_PID) && strncmp(*env, "WATCHDOG_PID=", 13) == 0) {
			snprintf(watchdog, sizeof watchdog, "WATCHDOG_PID=%d", (int)getpid());
			*env = watchdog;
		}
}

// fork_program forks the program as PID 1's child; pair[1] is the
// child's end of the connect broker's hand-over, or -1.
static pid_t fork_program(const struct spec *s, char **env, const int pair[2]) {
	pid_t child = fork();
	if (child < 0)
		exec_failed(s->path, errno);
	if (child > 0)
		return child;
	ignore_signals(s);
	set_program_mask(s);
	// Without a seccomp filter nothing stops TIOCSTI, so the program
	// then gets a session of its own and no controlling terminal.
	if (s->flags & F_TERMINAL)
		omega_foreground();
	else if ((s->flags & F_NEW_SESSION) && setsid() < 0)
		exec_failed(s->path, errno);
	set_service_pids(s, env);
	// Limits go in the program's process only: set in PID 1 they would
	// bind it too (its connect broker's fds and time, a low nproc its
	// fork). Before its profile, which may kill setting them (a custom
	// one); a nofile below the fds open here leaves the connect broker
	// no listener, which the broker says.
	omega_apply_limits(s, omega_own_tasks(s));
	if (omega_brokered(s)) {
		close(pair[0]);
		if (omega_broker_child(s, pair[1]) < 0)
			omega_install_profile(s);
	} else {
		omega_install_profile(s);
	}
	execve(s->path, (char **)s->argv.v, env);
	exec_failed(s->path, errno);
}

// own_profile gives PID 1 the program's profile, which omega_confine
// left for after the fork: the program's process installs it after its
// limits. Where it fails, that process most likely failed the same way
// and said so (125): one message, not two.
static void own_profile(const struct spec *s, pid_t child) {
	if (!(s->flags & F_SECCOMP) || (s->flags & F_PLAIN) || omega_seccomp_try(s->bpf, s->bpf_len, s->seccomp_flags) == 0)
		return;
	int e = errno, st;
	if (waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 125)
		_exit(125);
	errno = e;
	omega_install_profile(s); // says why
}

// take_broker receives the broker's listener from the program over
// pair[0] and starts serving it; *sfd becomes a signalfd of set, since
// PID 1 then waits for signals and connects at once.
static struct broker *take_broker(const struct spec *s, int pair0, const sigset_t *set, int *sfd, pid_t child) {
	// PID 1 keeps no fd of the caller's: the broker resolves paths
	// such as /proc/self/fd/N with PID 1's own fd table. The launcher's
	// socket stays: connected, bound to no path, nothing connects to it.
	omega_close_from(3, pair0, report_fd);
	int listener = omega_broker_recv(pair0);
	// PID 1's own filter: the profile's may refuse what the broker
	// needs (pidfd_getfd, process_vm_readv). Where it fails, the
	// program's process most likely failed the same way and said so
	// (125): one message, not two.
	if (s->sup_len && omega_seccomp_try(s->sup_bpf, s->sup_len, 0) != 0) {
		int e = errno, st;
		if (listener < 0 && waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 125)
			_exit(125);
		errno = e;
		omega_seccomp_install(s->sup_bpf, s->sup_len, 0); // says why
	}
	if (listener < 0)
		return NULL;
	struct broker *b = omega_broker_new(s, listener);
	if ((*sfd = signalfd(-1, set, SFD_CLOEXEC)) < 0)
		omega_dief(errno, "connect broker: signalfd");
	return b;
}

// reap collects every zombie; when the program is among them PID 1
// exits with its status.
// report_job tells the launcher that the program stopped by sig ('S') or
// went on ('C'), so that it stops too and the caller's shell, which
// waits for the launcher, takes the terminal back: a program that stops
// itself (vi's, Claude Code's Ctrl-Z: kill(0, SIGTSTP)) cannot signal
// the launcher outside its Landlock domain. Never blocking.
static void report_job(char kind, int sig) {
	unsigned char m[2] = {(unsigned char)kind, (unsigned char)sig};
	if (report_fd >= 0)
		(void)send(report_fd, m, sizeof m, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void reap(pid_t child) {
	for (;;) {
		int st;
		pid_t got = waitpid(-1, &st, WNOHANG | WUNTRACED | WCONTINUED);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			_exit(125);
		if (got == 0)
			return;
		if (got == child && WIFSTOPPED(st))
			report_job('S', WSTOPSIG(st));
		else if (got == child && WIFCONTINUED(st))
			report_job('C', 0);
		else if (got == child) {
			omega_read_only_lost();
			_exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
		}
	}
}

// supervise is pid1_linux.go's supervise: PID 1 starts the program as its
// child, forwards signals to it, reaps every zombie and exits with the
// program's status once it is gone; the kernel then kills whatever is
// left in the namespace. PID 1 is confined like the program (omega_confine
// ran before the fork, own_profile or the broker's filter right after it)
// and stays non-dumpable.
static void __attribute__((noreturn)) supervise(const struct spec *s, char **env) {
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	omega_set_cloexec_from(3 + s->keep_fds);
	// The broker's listener comes back from the program over this pair.
	int pair[2] = {-1, -1};
	if (omega_brokered(s)) {
		omega_broker_prepare(s);
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
			omega_dief(errno, "connect broker: socketpair");
	}
	omega_oom_raise();
	pid_t child = fork_program(s, env, pair);
	omega_oom_restore();
	if (!omega_brokered(s))
		own_profile(s, child);
	// The program stays in the caller's process group, so keys typed at
	// the terminal reach it directly; PID 1 leaves that group so that it
	// only sees signals sent to it on purpose, and forwards each once.
	// At once: until then a Ctrl-C reaches the program twice (from the
	// terminal, and forwarded), and the broker's hand-over below waits for
	// the program. Not before the fork: the program would inherit the new
	// group and could not go back (the caller's is outside this pid
	// namespace, so it has no number here).
	setpgid(0, 0);
	struct broker *b = NULL;
	int sfd = -1;
	if (omega_brokered(s))
		b = take_broker(s, pair[0], &set, &sfd, child);
	for (;;) {
		int sig = sfd < 0 ? sigwaitinfo(&set, NULL) : next_signal(sfd, &b);
		if (sig < 0) {
			if (errno == EINTR)
				continue;
			_exit(125);
		}
		if (sig == SIGCHLD)
			reap(child);
		else if (sig == SIGCONT && (s->flags & F_TERMINAL))
			kill(-child, sig); // its job, which the terminal's stop stopped
		else
			kill(child, sig);
	}
}

// block_forwarded blocks, for PID 1, the forwarded signals and SIGCHLD
// from now on: they wait, pending, until sigwaitinfo after the fork. A
// pid namespace's init would drop them otherwise (no handler). The
// launcher started this process with the forwarded signals blocked
// already (sigmask_linux.go); the program gets its caller's mask back
// (set_program_mask).
static void block_forwarded(const struct spec *s) {
	if (!(s->flags & F_PID1))
		return;
	sigset_t fwd;
	sigemptyset(&fwd);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&fwd, forwarded[i]);
	sigaddset(&fwd, SIGCHLD);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_BLOCK, &fwd, NULL);
}

// await_go_ahead waits until the parent has put this process in its
// cgroup (v1), then makes a cgroup namespace rooted there.
static void await_go_ahead(const struct spec *s, int early) {
	if (early)
		omega_die(125, "spec: a cgroup go-ahead for an init stage started early");
	int fd = SPEC_FD + 1 + s->keep_fds;
	char b;
	ssize_t n = read(fd, &b, 1);
	int e = errno;
	close(fd);
	if (n != 1)
		omega_die(125, "waiting for the parent: %zd bytes, %s", n, n < 0 ? omega_errstr(e) : "<nil>");
	if ((s->flags & F_CGROUP_NS) && unshare(CLONE_NEWCGROUP) < 0)
		omega_dief(errno, "unshare(CLONE_NEWCGROUP)");
}

// loopback_up brings lo up in the new network namespace: one flag, no
// netlink, on a socket of any family (the ioctl reaches the device
// either way). A unit's RestrictAddressFamilies= refuses those it does not
// list with EAFNOSUPPORT; where it refuses all three, so it does to the
// program, and lo stays down with no socket inside to use it.
static void loopback_up(void) {
	static const int fams[] = {AF_INET, AF_INET6, AF_UNIX};
	int fd = -1;
	for (size_t i = 0; fd < 0 && i < sizeof fams / sizeof fams[0]; i++)
		if ((fd = socket(fams[i], SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 && errno != EAFNOSUPPORT)
			omega_dief(errno, "loopback: socket");
	if (fd < 0)
		return;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		omega_dief(errno, "loopback: ioctl(SIOCSIFFLAGS)");
	close(fd);
}

// omega_run_init is the init stage: from a re-executed process (spec at
// SPEC_FD, the preserved fds after it), or from the process the CLI's
// constructor started before the Go runtime (cinit_early.c: spec_fd
// anywhere, the preserved fds already at 3…).
void __attribute__((noreturn)) omega_run_init(int spec_fd, int early, char **envp) {
	struct spec s;
	// Nobody inside may open this process's memory, fds or exe through
	// /proc: it holds capabilities in the namespace until omega_confine().
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		omega_dief(errno, "prctl(PR_SET_DUMPABLE)");
	// Waiting for the Go parent's spec anyway: the bounding set (≈ 40
	// prctl calls) goes now, off the critical path. Every spec an init
	// stage gets confines (rwx execs in place), so it would go anyway.
	// Likewise the counts of the user namespace an early start always has.
	if (early)
		omega_drop_bounding();
	const char *ucounts = early ? omega_cap_user_counts() : NULL;
	int back = omega_read_spec(spec_fd, &s);
	if (!early)
		omega_refuse_changed_cmd(&s); // an early start's namespaces are its own
	// Above the preserved fds (moved down to 3… below) and the go-ahead;
	// close-on-exec: the program never gets it.
	if (back >= 0) {
		report_fd = fcntl(back, F_DUPFD_CLOEXEC, SPEC_FD + 2 + (int)s.keep_fds);
		close(back);
	}
	omega_log_json = (s.flags & F_LOG_JSON) != 0;
	omega_user_counts(&s, early, ucounts);
	block_forwarded(&s);
	if (s.flags & F_GO_AHEAD)
		await_go_ahead(&s, early);
	// The preserved fds follow the spec fd: move them down to 3….
	for (uint32_t i = 0; i < s.keep_fds && !early; i++)
		if (dup3(SPEC_FD + 1 + i, SPEC_FD + i, 0) < 0)
			omega_dief(errno, "dup3");
	if (s.keep_fds > 0 || early)
		omega_set_cloexec_from(SPEC_FD + s.keep_fds);
	if (s.flags & F_USER)
		omega_watch_parent(); // before the mounts cover the host's /proc
	if (s.flags & F_MOUNTS) {
		omega_refuse_host_dirs(&s);
		omega_enter_mounts(&s);
		if (s.flags & F_OWN_KEYRING)
			omega_new_session_keyring();
	}
	if (s.hostname[0] && sethostname(s.hostname, strlen(s.hostname)) < 0)
		omega_dief(errno, "sethostname");
	if (s.flags & F_LOOPBACK)
		loopback_up();
	if (s.flags & F_PROBE)
		_exit(0);
	char **env = omega_program_env(&s, (s.flags & F_CLEAR_ENV) ? NULL : envp);
	if (s.flags & F_TERMINAL)
		omega_take_terminal(); // PID 1's session, or without PID 1 the program's
	else if ((s.flags & F_NEW_SESSION) && !(s.flags & F_PID1))
		omega_leave_terminal(); // no PID 1 to start it in a session of its own
	omega_confine(&s);
	if (s.flags & F_PID1)
		supervise(&s, env);
	omega_apply_limits(&s, 0); // this process becomes the program
	omega_install_profile(&s);
	omega_set_cloexec_from(3 + s.keep_fds);
	set_service_pids(&s, env); // an exec in place: this is the program's pid
	ignore_signals(&s);
	set_program_mask(&s);
	execve(s.path, (char **)s.argv.v, env);
	exec_failed(s.path, errno);
}

// What omega_cinit got, for a test.
static int ctor_argc = -1;
static char **ctor_argv, **ctor_envp;

int omega_ctor_args(char ***argv, char ***envp) {
	*argv = ctor_argv, *envp = ctor_envp;
	return ctor_argc;
}

// cinit runs in every process of a binary that links nsexec with cgo,
// before the Go runtime; the CLI's own constructor may run before it
// (link order), and leaves an init stage's process alone.
static void cinit(int argc, char **argv, char **envp) {
	ctor_argc = argc, ctor_argv = argv, ctor_envp = envp;
	if (argc > 1 && argv[1] && strcmp(argv[1], OMEGA_INIT_ARG) == 0)
		omega_run_init(SPEC_FD, 0, envp);
}

OMEGA_CONSTRUCTOR(omega_cinit, cinit)
