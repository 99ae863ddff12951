// cinit.h: what the C init stage (cinit*.c) shares with cinit_linux.go.
#ifndef OMEGA_CINIT_H
#define OMEGA_CINIT_H

#include <stddef.h>
#include <stdlib.h> // glibc's features.h: __GLIBC__

// OMEGA_INIT_ARG is nsexec.InitArg (a Go test checks that they agree).
#define OMEGA_INIT_ARG "__omega_run_init__"
// OMEGA_PTY_GUARD_ARG is nsexec.PtyGuardArg: --pty's guardian, this binary
// run again outside the sandbox, is no launch and no init stage.
#define OMEGA_PTY_GUARD_ARG "__omega_run_pty_guard__"

// OMEGA_APPENDED_HINT is nsexec.AppendedFilesHint (a Go test checks).
#define OMEGA_APPENDED_HINT                                                                               \
	"cmd.ExtraFiles has files after the spec and the preserved fds, which the program would not get: " \
	"pass them as Options.ExtraFiles instead"

// OMEGA_NO_NAMESPACES_HINT is nsexec.NoNamespacesHint (a Go test checks).
#define OMEGA_NO_NAMESPACES_HINT                                                    \
	"not started in new namespaces: cmd.SysProcAttr, which carries them, was replaced " \
	"(set its fields instead); nothing was set up"

// OMEGA_OTHER_NET_REFUSED is nsexec.OtherNetRefused (a Go test checks).
#define OMEGA_OTHER_NET_REFUSED                                                       \
	"refused connect() on a socket of a network namespace other than the sandbox's " \
	"(the host's, handed over or passed in; or one the program made): "              \
	"with --net none it stays as it came, since Landlock's TCP rules do not cover "    \
	"MPTCP, SCTP or UDP; further refusals are not reported"

// OMEGA_NO_GO_AHEAD_HINT is nsexec.NoGoAheadHint (a Go test checks).
#define OMEGA_NO_GO_AHEAD_HINT                                                                        \
	"no go-ahead from the parent, which places this process in its cgroup first: "                    \
	"start a command with cgroup limits (Memory, Pids, CPUs) with sandbox.Start, not cmd.Start, Run " \
	"or Output; nothing was run"

// OMEGA_CAPSET_REFUSED is nsexec.CapsetRefused (a Go test checks).
#define OMEGA_CAPSET_REFUSED                                                                         \
	"a seccomp filter around omega-run refuses capset, which drops the program's capabilities " \
	"and lets the init stage keep its own across its exec; allow capset in that filter"

// OMEGA_LL_READ_SIDE is landlock.ReadSide: the Landlock rights a
// WritesOnly ruleset leaves unhandled once the mounts are in place
// (execute, read_file, read_dir, truncate; a Go test checks).
#define OMEGA_LL_READ_SIDE ((1ULL << 0) | (1ULL << 2) | (1ULL << 3) | (1ULL << 14))

// OMEGA_LL_DEVICE_DIR is landlock.DeviceDirs' one entry: the writable
// root that keeps its name (the stage made it); every other is opened
// without following symlinks (a Go test checks).
#define OMEGA_LL_DEVICE_DIR "/dev/shm"

// omega_capset_kills is set by the CLI's filter-kills check
// (cinit_filterkills.c) when a seccomp filter around omega-run kills on
// capset, which rx and sandbox mode make and rwx does not.
extern int omega_capset_kills;

// omega_spec_describe decodes a wire-format spec the way the init stage
// does and returns a malloc'd text dump of it (NULL when it is
// malformed), for the test that compares the C and Go decoders.
char *omega_spec_describe(const unsigned char *buf, size_t len);

// omega_early_start is called by the omega-run CLI's constructor (and no
// other binary's): for a command line that will most likely run a program
// in sandbox mode, it starts the init stage in its namespaces before the
// Go runtime does (cinit_early.c). omega_early_ready waits for it and
// tells whether one is ready (its namespaces made, its maps written
// through a /proc of this pid namespace); omega_early_take hands it to Go
// once (pid of the init stage, write end of its spec pipe), and returns 0
// when there is none; omega_early_drop kills and reaps one not taken. It then
// has the Go runtime start with one P where the environment lets it lend
// a slot (one_proc in cinit_early.c; omega_early_env_restore).
void omega_early_start(int argc, char **argv, char **envp);
// omega_ctor_args returns argc as the constructor got it, -1 when it got
// none, for a test.
int omega_ctor_args(char ***argv, char ***envp);

// omega_initial_args finds argc, argv and envp from a constructor where
// the C library does not pass them (cinit_args.c); -1 when it cannot.
int omega_initial_args(int *argc, char ***argv, char ***envp);

// omega_secure_exec tells whether this process has privileges its caller
// has not (setuid, setgid, file capabilities: AT_SECURE, or real and
// effective ids that differ); cinit_args.c.
int omega_secure_exec(void);

// OMEGA_CONSTRUCTOR(name, fn) defines a constructor that calls
// fn(argc, argv, envp). glibc passes them to constructors — and is then
// not misled by an environ that a preloaded library moved; musl passes
// nothing, and omega_initial_args finds them. An elevated process runs
// none of them (no init stage, no config read): the Go side refuses it
// (internal/secureexec).
// OMEGA_CONSTRUCTOR_AT(name, fn, (N)) runs before every constructor
// without a priority (lower N first): the filter-kills check must end a
// launch before the CLI's early start clones an init stage for it.
#define OMEGA_CONSTRUCTOR(name, fn) OMEGA_CONSTRUCTOR_AT(name, fn, )
#ifdef __GLIBC__
#define OMEGA_CONSTRUCTOR_AT(name, fn, prio)                                                \
	__attribute__((constructor prio)) static void name(int argc, char **argv, char **envp) { \
		if (!omega_secure_exec())                                                     \
			fn(argc, argv, envp);                                                     \
	}
#else
#define OMEGA_CONSTRUCTOR_AT(name, fn, prio)                                      \
	__attribute__((constructor prio)) static void name(void) {                \
		int argc;                                                            \
		char **argv, **envp;                                                 \
		if (!omega_secure_exec() && omega_initial_args(&argc, &argv, &envp) == 0) \
			fn(argc, argv, envp);                                            \
	}
#endif
// omega_early_wanted is omega_early_start's decision, for a test.
int omega_early_wanted(int argc, char **argv, char **envp);
int omega_early_ready(void);
int omega_early_take(int *pid, int *spec_fd);
void omega_early_drop(void);
// omega_early_env_restore gives back the environment entry the
// constructor lent GOMAXPROCS=1 (cinit_early.c); NULL when none was lent.
const char *omega_early_env_restore(void);

#endif
