// cinit_internal.h: what the files of the C init stage share with each
// other (cinit.h is what they share with Go). The decoded spec and its flag
// bits, and the functions and variables one file defines and others use.
// Those are external symbols of every binary that links nsexec with cgo,
// so they carry the omega_ prefix; everything else in the files is static.
//
//	cinit.c          the constructor, run_init and the program's exec
//	cinit_pid1.c     PID 1: the program's fork, signals, reaping, job reports
//	cinit_errors.c   error exits, mount-step errors, warnings
//	cinit_spec.c     reading and decoding the spec (and the test's dump)
//	cinit_mounts.c   the mount plan: read-only root, /run, /dev, masks
//	cinit_mountinfo.c one line of /proc/self/mountinfo (remount, /proc's options)
//	cinit_hiddenwd.c refusing a working directory inside a hidden one
//	cinit_confine.c  capabilities, Landlock, seccomp, user switch,
//	                 environment and resource limits
//	cinit_broker.c   the connect(2) broker: PID 1 decides every connect
//	cinit_broker_pool.c  PID 1 takes the calls and answers them from threads
//	cinit_early.c    the CLI's sandbox init stage, started before the Go runtime
//	cinit_early_wanted.c  whether a command line gets one
//	cinit_args.c     argv and envp for the constructors, on glibc and musl
#ifndef OMEGA_CINIT_INTERNAL_H
#define OMEGA_CINIT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/filter.h>

#include "cinit.h"

// struct landlock_ruleset_attr, newer than some C libraries' headers.
struct omega_ruleset_attr {
	uint64_t handled_access_fs, handled_access_net, scoped;
};

#define SPEC_FD 3

// ------------------------------------------------ errors (cinit_errors.c)

// omega_log_json selects the parent's JSON log format for warnings.
extern int omega_log_json;

const char *omega_errstr(int e);
void __attribute__((noreturn, format(printf, 2, 3))) omega_die(int code, const char *fmt, ...);
void __attribute__((noreturn)) omega_die_line(int code, const char *tag, const char *msg);
void omega_put_term_safe(FILE *f, const char *msg);
void omega_put_json(FILE *f, const char *s);

// OMEGA_TEXT_RESET is termsafe.TextReset: SI, ESC ( B, SGR 0, a Linux
// console's default colours (ESC [ 8 ]), DECAWM on, the whole screen to
// scroll (inside DECSC, DECRC) and the terminal's own default colours
// (OSC 110, 111): a warning shown whole again.
#define OMEGA_TEXT_RESET                                                                                 \
	"\x0f\x1b(B\x1b[0m\x1b[37;40m\x1b[8]\x1b[0m"                                                         \
	"\x1b[?7h\x1b" "7\x1b[r\x1b" "8" /* (\x1b7 would be one escape) */ "\x1b]110\x1b\\"                  \
	"\x1b]111\x1b\\"
void omega_exec_hint(const char *path, int e, char *out, size_t size);
void __attribute__((noreturn, format(printf, 2, 3))) omega_dief(int e, const char *fmt, ...);

// The mount steps return -1 and leave their error here, so that the
// caller can fall back (EPERM) instead of failing.
extern char omega_step_msg[1024];
extern int omega_step_err;
int __attribute__((format(printf, 2, 3))) omega_step_fail(int e, const char *fmt, ...);

void omega_warn(const char *msg);

// ------------------------------------------------------- run (cinit.c)

void __attribute__((noreturn)) omega_run_init(int spec_fd, int early, char **envp);

// ---------------------------------------------------- spec (cinit_spec.c)

// strs is a decoded list: pointers into the spec buffer, NULL-terminated
// (so argv and env can go to execve as they are).
struct strs {
	uint32_t n;
	const char **v;
};

struct limit {
	const char *name;
	int32_t resource;
	uint64_t soft, hard;
	uint32_t keep;
};

struct rule {
	const char *path;
	uint64_t access;
	uint32_t missing;
};

struct spec {
	uint32_t flags, keep_fds;
	const char *path, *hostname, *tmp_from;
	struct strs argv, env, unsetenv;
	struct strs writable, keep, hide_dirs, hide_files, read_only, pin;
	uint32_t uid, gid, ngroups;
	gid_t *groups;
	uint32_t nlimits;
	struct limit *limits;
	struct omega_ruleset_attr ll;
	uint32_t ll_flags, nrules;
	struct rule *rules;
	struct sock_filter *bpf;
	uint32_t bpf_len, seccomp_flags;
	// The connect broker (F_BROKER): the program's whole filter with the
	// broker's rules (installed with a listener instead of bpf), PID 1's
	// own filter (sup_len 0: none) and the sockets reachable anywhere.
	struct sock_filter *broker_bpf, *sup_bpf;
	uint32_t broker_len, sup_len;
	struct strs sockets;
	// The signals the program starts with ignored (bit n-1: signal n).
	uint64_t ignored;
	// The program's signal mask as it starts (bit n-1: signal n).
	uint64_t blocked;
};

// The flag bits of wire_linux.go.
enum {
	F_PID1 = 1 << 0, F_LOOPBACK = 1 << 1, F_NEW_SESSION = 1 << 2, F_FAIL_CLOSED = 1 << 3,
	F_PLAIN = 1 << 4, F_CLEAR_ENV = 1 << 5, F_GO_AHEAD = 1 << 6, F_CGROUP_NS = 1 << 7,
	F_PROBE = 1 << 8, F_LOG_JSON = 1 << 9, F_MOUNTS = 1 << 10, F_FRESH_RUN = 1 << 11,
	F_USER = 1 << 12, F_SECCOMP = 1 << 13, F_DENY_TCP = 1 << 14, F_UNIX_SOCKETS = 1 << 15,
	F_WRITES_ONLY = 1 << 16, F_BROKER = 1 << 17, F_LISTEN_PID = 1 << 18, F_WATCHDOG_PID = 1 << 19,
	F_LOG_DENIALS = 1 << 20, // for the Go init stage; this one reads ll_flags
	F_MOUNTS_REQUIRED = 1 << 21, F_OWN_KEYRING = 1 << 22, F_USER_COUNTS = 1 << 23, F_REFUSE_APPENDED = 1 << 24,
	F_TMPDIR_IF_REFUSED = 1 << 25,
	F_TERMINAL = 1 << 26,
	F_FOREGROUND = 1 << 27, // for the Go init stage; this one reads si_code
};

enum { MISSING_FAILS, MISSING_SKIPPED, MISSING_IGNORED, MISSING_STREAM }; // landlock.Missing

void *omega_alloc(uint64_t n, size_t size);
int omega_read_spec(int fd, struct spec *s);
void omega_set_cloexec_from(unsigned first);

// cinit_idmaps.c: the early init stage's id maps, written by its helper.
int omega_early_write_maps(pid_t c, uid_t uid, gid_t gid);

// cinit_oom.c: the program's OOM score above PID 1's.
void omega_oom_hold(void);
void omega_oom_prehold(void);
void omega_oom_drop_early(void);
void omega_oom_raise(void);
int omega_oom_unheld(void);
void omega_oom_restore(void);
void omega_close_from(unsigned first, int *keep, int n);
void omega_leave_terminal(void);
void omega_take_terminal(void);
void omega_foreground(void);

// ------------------------------------------------ mounts (cinit_mounts.c)

int omega_setup_mounts(const struct spec *s);
void omega_unprotected(const struct spec *s, char *buf, size_t n);
void omega_read_only_lost(void);

// The working directory as Go's os.Getwd names it, and the refusal of one
// inside a directory the sandbox hides (cinit_hiddenwd.c).
char *omega_getwd_go(void);
void omega_refuse_hidden_wd(const struct spec *s);
int omega_back_to_wd(struct spec *s, const char *wd, int oldwd, int rc);

// Mount helpers (cinit_mounts.c), shared with cinit_masks.c. Each returns
// -1 with omega_step_err/omega_step_msg set on failure.
// System call numbers and structures newer than some C libraries' headers.
// These numbers are the same on every architecture omega-run builds for.
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#define OMEGA_MOUNT_ATTR_RDONLY 0x1
#define OMEGA_MOUNT_ATTR_NOSUID 0x2
#define OMEGA_MOUNT_ATTR_NODEV 0x4

struct omega_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

int omega_mount(const char *src, const char *dst, const char *fstype, unsigned long flags, const char *data);
void omega_proc_options(char *out, size_t n);

// One line of /proc/self/mountinfo, split in place (cinit_mountinfo.c):
// the paths unescaped, source "" where the mount has none.
struct omega_mountinfo {
	unsigned long long id;
	char *dev, *root, *point, *options, *fstype, *source, *super;
};
int omega_mountinfo_line(char *line, struct omega_mountinfo *m);
int omega_private_tree(const struct spec *s, const char *wd);
int omega_bind_fd(int fd, const char *dst, unsigned long flags);
int omega_bind_failed(const char *what, const char *path);
int omega_set_attr(const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how);
int omega_set_attr_fd(int fd, const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how);
int omega_remount(int fd, const char *path, unsigned flags, uint64_t set, uint64_t clr, const char *how);
int omega_open_existing(const char *path);
int omega_open_nofollow(const char *path);
int omega_nofollow_fail(int e, const char *what, const char *path);
int omega_create_file(const char *path, mode_t mode);
int omega_setup_dev(void);
int omega_hide(const struct spec *s);
int omega_read_only_binds(const struct spec *s);


// ------------------------------------------------------ exec (cinit.c)

// What the program gets right before its execve, forked by PID 1 or in
// place; omega_exec_failed exits 126 or 127 with its hint.
void __attribute__((noreturn)) omega_exec_failed(const char *path, int e);
void omega_ignore_signals(const struct spec *s);
void omega_set_program_mask(const struct spec *s);
void omega_set_service_pids(const struct spec *s, char **env);

// ------------------------------------------------- PID 1 (cinit_pid1.c)

// The signals PID 1 forwards (pid1_linux.go's Forwarded); SIGCHLD aside.
#define OMEGA_NFORWARDED 10
extern const int omega_forwarded[OMEGA_NFORWARDED];

void omega_keep_report_fd(int back, uint32_t keep_fds);
void omega_block_forwarded(const struct spec *s);
void __attribute__((noreturn)) omega_supervise(const struct spec *s, char **env);

// ---------------------------------------------- confine (cinit_confine.c)

void omega_confine(const struct spec *s);
void omega_new_session_keyring(void);
const char *omega_cap_user_counts(void);
void omega_refuse_changed_cmd(const struct spec *s);
void omega_user_counts(const struct spec *s, int early, const char *early_err);
rlim_t omega_own_tasks(const struct spec *s);
void omega_watch_parent(void);
int omega_parent_gone(void);
void omega_drop_bounding(void);
unsigned short omega_bpf_insns(const char *what, uint32_t len);
int omega_landlock_abi(void);
long omega_seccomp_try(const struct sock_filter *bpf, uint32_t len, uint32_t flags);
void omega_seccomp_install(const struct sock_filter *bpf, uint32_t len, uint32_t flags);
void omega_landlock_writes_only(struct spec *s, int old_cwd);
void omega_refuse_host_dirs(const struct spec *s);
void omega_enter_mounts(struct spec *s);
char **omega_program_env(const struct spec *s, char **inherited);
void omega_apply_limits(const struct spec *s, rlim_t own);
void omega_install_profile(const struct spec *s);

// ------------------------------------------------ broker (cinit_broker.c)

// omega_brokered: PID 1 brokers the program's connects (the broker needs
// PID 1, and mounts that made everything outside the writable set
// read-only: run_init clears F_BROKER when they failed).
static inline int omega_brokered(const struct spec *s) {
	return (s->flags & F_BROKER) && (s->flags & F_PID1);
}
int omega_broker_child(const struct spec *s, int sock);
int omega_broker_recv(int sock);
// omega_call is one connect(2) of the program: what its notification gave,
// then what omega_broker_take got from the program.
struct omega_call {
	uint64_t id;
	pid_t tid;
	pid_t proc_pid; // what names the thread in /proc (fdinfo_pid)
	int fd;
	uint64_t addr;
	uint32_t len;
	int indirect; // socketcall(SYS_CONNECT): addr points at the arguments
	struct sockaddr_storage ss;
	int sock;
	struct omega_call *next; // the pool's queue
};
int omega_broker_take(int listener, struct omega_call *c);
int omega_broker_connect(int listener, struct omega_call *c);
// cinit_broker_net.c
void omega_broker_net_prepare(const struct spec *s);
int omega_broker_other_net(int sock);

// cinit_broker_signal.c; OMEGA_BROKER_WORKERS: the pool's cap on threads.
enum { OMEGA_BROKER_WORKERS = 32 };
int omega_broker_sliced(int listener, const struct omega_call *c, int sock, const struct sockaddr *sa, socklen_t len);
void omega_broker_prepare(const struct spec *s);
uint32_t omega_broker_held(int *fds);

// cinit_broker_pool.c
struct broker;
struct broker *omega_broker_new(const struct spec *s, int listener);
int omega_broker_fd(const struct broker *b);
int omega_broker_handle(struct broker *b, short revents);

#endif
