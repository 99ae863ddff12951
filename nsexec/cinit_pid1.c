//go:build linux && cgo && !omega_goinit

// cinit_pid1.c: the C init stage's PID 1 (pid1_linux.go is the Go one's).
// It forks the program, confines itself as the program is, forwards
// signals, serves the connect broker, reports the program's stops to the
// launcher, reaps every zombie and exits with the program's status.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cinit_internal.h"

// report_fd is the launcher's spec socket, kept for the reports of the
// program's stops (-1: none).
static int report_fd = -1;

// The signals PID 1 forwards (pid1_linux.go's Forwarded), and SIGCHLD.
const int omega_forwarded[OMEGA_NFORWARDED] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
                                               SIGUSR2, SIGWINCH, SIGCONT, SIGABRT, SIGALRM};
#define forwarded omega_forwarded

// omega_keep_report_fd keeps the launcher's socket, back, for the
// reports of the program's stops: above the preserved fds and the
// go-ahead, close-on-exec.
void omega_keep_report_fd(int back, uint32_t keep_fds) {
	report_fd = fcntl(back, F_DUPFD_CLOEXEC, SPEC_FD + 2 + (int)keep_fds);
	close(back);
}

// next_signal waits for a signal on sfd (a signalfd of the blocked set)
// while it serves the connect broker *b (NULL once it is done); *code is
// its si_code.
static int next_signal(int sfd, struct broker **b, int *code) {
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
		if (n == sizeof si) {
			*code = si.ssi_code;
			return (int)si.ssi_signo;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
	}
}

// The signals a terminal sends its foreground process group: Ctrl-C,
// Ctrl-\, a resize, a hang-up, and the shell's fg.
static const int term_signals[] = {SIGINT, SIGQUIT, SIGWINCH, SIGHUP, SIGCONT};

// from_callers_terminal tells a signal the kernel sent PID 1 as a member of
// the caller's process group, before it left that group: a terminal's
// Ctrl-C, Ctrl-\, resize or hang-up. Only with --pty, where the launcher
// decides for its terminal's and forwards them itself (elsewhere
// pass_early took them): forwarded here too, a Ctrl-C arrived twice (and
// a doubled Ctrl-C quits many TUIs). What is sent on purpose (kill, the
// launcher's forwarding) is SI_USER.
static int from_callers_terminal(int sig, int code) {
	if (code != SI_KERNEL)
		return 0;
	return sig == SIGINT || sig == SIGQUIT || sig == SIGWINCH || sig == SIGHUP || sig == SIGCONT;
}

// hold_open makes the pipe the program's process waits on (wait_held),
// the terminal's signals still blocked, until PID 1 has left the
// caller's group and passed on what it got there (pass_early); none with
// --pty (from_callers_terminal).
static void hold_open(const struct spec *s, int hold[2]) {
	hold[0] = hold[1] = -1;
	if (!(s->flags & F_TERMINAL) && pipe2(hold, O_CLOEXEC) < 0)
		omega_dief(errno, "pipe2");
}

// wait_held, in the program's process, waits for PID 1 to close its end
// of hold (pass_early).
static void wait_held(const int hold[2]) {
	if (hold[0] < 0)
		return;
	close(hold[1]);
	char c;
	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
	close(hold[0]);
}

// pass_early, in PID 1 once it has left the caller's group, sends the
// program each terminal signal PID 1 got while in that group, and then
// lets it go on (hold). A Ctrl-C typed while the launch set up, before
// the fork, reached PID 1 alone, and ends the program, as it ends
// `sleep 1; prog`; one typed after the fork reached the program too,
// where it waits, blocked, and the second merges with it: the program
// gets it once either way. Taken before the fork instead, one that came
// between that look and the fork was dropped (TestCtrlCAtProgramFork).
static void pass_early(pid_t child, const int hold[2]) {
	if (hold[1] < 0)
		return;
	close(hold[0]);
	sigset_t pending;
	if (sigpending(&pending) == 0)
		for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++) {
			int sig = term_signals[i];
			sigset_t one;
			sigemptyset(&one);
			sigaddset(&one, sig);
			if (sigismember(&pending, sig) == 1 && sigtimedwait(&one, NULL, &(struct timespec){0}) == sig)
				kill(child, sig);
		}
	close(hold[1]);
}

// fork_program forks the program as PID 1's child; pair[1] is the
// child's end of the connect broker's hand-over, or -1; hold is
// hold_open's.
static pid_t fork_program(const struct spec *s, char **env, const int pair[2], const int hold[2]) {
	pid_t child = fork();
	if (child < 0)
		omega_exec_failed(s->path, errno);
	if (child > 0)
		return child;
	omega_ignore_signals(s);
	// Without a seccomp filter nothing stops TIOCSTI, so the program
	// then gets a session of its own and no controlling terminal.
	if (s->flags & F_TERMINAL) {
		omega_set_program_mask(s);
		omega_foreground();
	} else if ((s->flags & F_NEW_SESSION) && setsid() < 0)
		omega_exec_failed(s->path, errno);
	omega_set_service_pids(s, env);
	// Limits go in the program's process only: set in PID 1 they would
	// bind it too (its connect broker's fds and time, a low nproc its
	// fork). Before its profile, which may kill setting them (a custom
	// one); a nofile below the fds open here leaves the connect broker
	// no listener, which the broker says.
	omega_apply_limits(s, omega_own_tasks(s));
	// PID 1's hand-over of the early signals, as late as the mask
	// allows: PID 1 is most often done by then, where a wait right after
	// the fork cost the launch a wake-up (≈ 5 ms median on a loaded VM).
	if (!(s->flags & F_TERMINAL)) {
		wait_held(hold);
		omega_set_program_mask(s);
	}
	if (omega_brokered(s)) {
		close(pair[0]);
		if (omega_broker_child(s, pair[1]) < 0)
			omega_install_profile(s);
	} else {
		omega_install_profile(s);
	}
	execve(s->path, (char **)s->argv.v, env);
	omega_exec_failed(s->path, errno);
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
	// socket stays: connected, bound to no path, nothing connects to it;
	// so do the allowed sockets, which lead nowhere else.
	int keep[2 + s->sockets.n];
	keep[0] = pair0, keep[1] = report_fd;
	omega_close_from(3, keep, 2 + (int)omega_broker_held(keep + 2));
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

// reap collects every zombie; when the program is among them PID 1
// exits with its status.
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

// omega_supervise is pid1_linux.go's supervise: PID 1 starts the program as its
// child, forwards signals to it, reaps every zombie and exits with the
// program's status once it is gone; the kernel then kills whatever is
// left in the namespace. PID 1 is confined like the program (omega_confine
// ran before the fork, own_profile or the broker's filter right after it)
// and stays non-dumpable.
void __attribute__((noreturn)) omega_supervise(const struct spec *s, char **env) {
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
	int hold[2];
	hold_open(s, hold);
	omega_oom_raise();
	pid_t child = fork_program(s, env, pair, hold);
	// The program stays in the caller's process group, so keys typed at
	// the terminal reach it directly; PID 1 leaves that group so that it
	// only sees signals sent to it on purpose, and forwards each once
	// (pass_early). At once: the program waits for it. Not before the
	// fork: the program would inherit the new group and could not go back
	// (the caller's is outside this pid namespace, so it has no number
	// here).
	setpgid(0, 0);
	pass_early(child, hold);
	omega_oom_restore();
	if (!omega_brokered(s))
		own_profile(s, child);
	struct broker *b = NULL;
	int sfd = -1;
	if (omega_brokered(s))
		b = take_broker(s, pair[0], &set, &sfd, child);
	for (;;) {
		siginfo_t info = {0};
		int sig = sfd < 0 ? sigwaitinfo(&set, &info) : next_signal(sfd, &b, &info.si_code);
		if (sig < 0) {
			if (errno == EINTR)
				continue;
			_exit(125);
		}
		if (sig == SIGCHLD)
			reap(child);
		else if (from_callers_terminal(sig, info.si_code))
			continue;
		else if (sig == SIGCONT && (s->flags & F_TERMINAL))
			kill(-child, sig); // its job, which the terminal's stop stopped
		else
			kill(child, sig);
	}
}

// omega_block_forwarded blocks, for PID 1, the forwarded signals and SIGCHLD
// from now on: they wait, pending, until sigwaitinfo after the fork. A
// pid namespace's init would drop them otherwise (no handler). The
// launcher started this process with the forwarded signals blocked
// already (sigmask_linux.go); the program gets its caller's mask back
// (omega_set_program_mask).
void omega_block_forwarded(const struct spec *s) {
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
