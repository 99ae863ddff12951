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
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

// ----------------------------------------------------------------- run

void __attribute__((noreturn)) omega_exec_failed(const char *path, int e) {
	char hint[512] = "";
	if (e == ENOENT || e == ENOEXEC)
		omega_exec_hint(path, e, hint, sizeof hint);
	char msg[2048];
	snprintf(msg, sizeof msg, "exec %s: %s%s", path, omega_errstr(e), hint);
	omega_die_line(e == ENOENT ? 127 : 126, NULL, msg); // as rx's: no "init: " (warn_linux.go's fatal)
}

// omega_ignore_signals gives the program, right before its execve, the signals
// its caller left ignored (nsexec.IgnoredAtStart), as an exec in place
// keeps them; before the mask is restored, so that none of them can end
// the program in between.
void omega_ignore_signals(const struct spec *s) {
	for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
		if (s->ignored & (uint64_t)1 << (sig - 1))
			signal(sig, SIG_IGN);
}

// omega_set_program_mask gives the program, right before its execve, its
// caller's signal mask (nsexec.BlockedAtStart): not the forwarded signals
// the launcher blocked for this process, nor what the launcher's Go
// runtime unblocked. The raw call: the C libraries would leave out 32-34.
void omega_set_program_mask(const struct spec *s) {
	uint64_t mask = s->blocked;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, NULL, sizeof mask);
}

// omega_set_service_pids points an existing LISTEN_PID (Spec.ListenPID) and
// WATCHDOG_PID (Spec.WatchdogPID) at this process, the program's; it adds
// neither.
void omega_set_service_pids(const struct spec *s, char **env) {
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
	if (n == 0)
		omega_die(125, "%s", OMEGA_NO_GO_AHEAD_HINT);
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

// move_preserved moves the preserved fds, which follow the spec fd, down
// to 3…; an early start has them there already.
static void move_preserved(const struct spec *s, int early) {
	for (uint32_t i = 0; i < s->keep_fds && !early; i++)
		if (dup3(SPEC_FD + 1 + i, SPEC_FD + i, 0) < 0)
			omega_dief(errno, "dup3");
	if (s->keep_fds > 0 || early)
		omega_set_cloexec_from(SPEC_FD + s->keep_fds);
}

// enter_namespaces sets up the namespaces the program runs in: its mounts
// (and keyring), its hostname and its loopback interface.
static void enter_namespaces(struct spec *s) {
	if (s->flags & F_MOUNTS) {
		omega_refuse_host_dirs(s);
		omega_enter_mounts(s);
		if (s->flags & F_OWN_KEYRING)
			omega_new_session_keyring();
	}
	if (s->hostname[0] && sethostname(s->hostname, strlen(s->hostname)) < 0)
		omega_dief(errno, "sethostname");
	if (s->flags & F_LOOPBACK)
		loopback_up();
}

// exec_in_place makes this process the program, without PID 1.
static void __attribute__((noreturn)) exec_in_place(const struct spec *s, char **env) {
	omega_apply_limits(s, 0);
	omega_install_profile(s);
	omega_set_cloexec_from(3 + s->keep_fds);
	omega_set_service_pids(s, env); // this is the program's pid
	omega_ignore_signals(s);
	omega_set_program_mask(s);
	execve(s->path, (char **)s->argv.v, env);
	omega_exec_failed(s->path, errno);
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
	// ps and /proc/1/comm name it as an early start's (rename_self) and
	// the Go stage's, not "exe" (/proc/self/exe).
	if (!early)
		prctl(PR_SET_NAME, "omega-run-init", 0, 0, 0);
	// Waiting for the Go parent's spec anyway: the bounding set (≈ 40
	// prctl calls) goes now, off the critical path. Every spec an init
	// stage gets confines (rwx execs in place), so it would go anyway.
	// Likewise the counts of the user namespace an early start always has,
	// and PID 1's fd on its OOM score (omega_oom_prehold).
	if (early) {
		omega_drop_bounding();
		omega_oom_prehold();
	}
	const char *ucounts = early ? omega_cap_user_counts() : NULL;
	int back = omega_read_spec(spec_fd, &s);
	if (!early)
		omega_refuse_changed_cmd(&s); // an early start's namespaces are its own
	// Above the preserved fds (moved down to 3… below) and the go-ahead;
	// close-on-exec: the program never gets it.
	if (back >= 0)
		omega_keep_report_fd(back, s.keep_fds);
	omega_log_json = (s.flags & F_LOG_JSON) != 0;
	omega_user_counts(&s, early, ucounts);
	omega_block_forwarded(&s);
	if (s.flags & F_GO_AHEAD)
		await_go_ahead(&s, early);
	move_preserved(&s, early);
	if (s.flags & F_USER)
		omega_watch_parent(); // before the mounts cover the host's /proc
	enter_namespaces(&s);
	omega_oom_drop_early();
	if (s.flags & F_PROBE)
		_exit(0);
	char **env = omega_program_env(&s, (s.flags & F_CLEAR_ENV) ? NULL : envp);
	if (s.flags & F_TERMINAL)
		omega_take_terminal(); // PID 1's session, or without PID 1 the program's
	else if ((s.flags & F_NEW_SESSION) && !(s.flags & F_PID1))
		omega_leave_terminal(); // no PID 1 to start it in a session of its own
	omega_confine(&s);
	if (s.flags & F_PID1)
		omega_supervise(&s, env);
	exec_in_place(&s, env);
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
