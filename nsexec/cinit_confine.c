//go:build linux && cgo && !omega_goinit

// cinit_confine.c: the C init stage confines itself (confine_linux.go in
// Go): bounding set, Landlock, user switch, capabilities, no_new_privs,
// seccomp (cinit_env.c prepares the program's environment and limits).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "cinit_internal.h"

// System call numbers and structures newer than some C libraries' headers.
// These numbers are the same on every architecture omega-run builds for.
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#define OMEGA_LANDLOCK_RULE_PATH_BENEATH 1

struct omega_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

// -------------------------------------------------------------- confine

// omega_drop_bounding empties the bounding set when this process may
// (CAP_SETPCAP); confine_linux.go's dropBounding. Once per process: the
// early init stage does it while it waits for its spec (cinit.c). The
// kernel answers EINVAL for the first number past its last capability
// (cap_valid), which ends the loop: /proc/sys/kernel/cap_last_cap may
// be unreadable (a guess would keep a newer kernel's later capabilities)
// or another file bound over it.
void omega_drop_bounding(void) {
	static int dropped;
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	if (dropped)
		return;
	dropped = 1;
	if (syscall(SYS_capget, &hdr, data) < 0)
		omega_dief(errno, "capabilities: capget");
	if (!(data[0].effective & (1U << CAP_SETPCAP)))
		return;
	for (int c = 0; c < 64; c++) // the sets are 64 bits
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0) {
			if (errno == EINVAL && c > 0) // past the kernel's last; 0 (CAP_CHOWN) every kernel has: a filter's answer
				return;
			omega_dief(errno, "capabilities: prctl(PR_CAPBSET_DROP)");
		}
}

static void clear_capabilities(void) {
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		omega_dief(errno, "capabilities: prctl(PR_CAP_AMBIENT_CLEAR_ALL)");
	if (syscall(SYS_capset, &hdr, data) < 0) {
		if (errno == EPERM) // dropping is always allowed: a filter's answer
			omega_die(125, "capabilities: capset: %s (%s)", omega_errstr(EPERM), OMEGA_CAPSET_REFUSED);
		omega_dief(errno, "capabilities: capset");
	}
}

static int enforces_landlock(const struct spec *s) {
	return s->ll.handled_access_fs || s->ll.handled_access_net || s->ll.scoped;
}

// on_writable_mount tells whether fd (AT_FDCWD: the working directory)
// leads onto a host mount that is not read-only: a directory always (the
// mounts below it are the host's, whatever its own is), a regular file
// not open for writing when its mount is not read-only.
static int on_writable_mount(int fd) {
	struct stat st;
	struct statfs fs;
	if (fd == AT_FDCWD ? stat(".", &st) < 0 : fstat(fd, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return 1;
	int fl = fd == AT_FDCWD ? O_RDONLY : fcntl(fd, F_GETFL);
	int written = fl >= 0 && !(fl & O_PATH) && ((fl & O_ACCMODE) == O_WRONLY || (fl & O_ACCMODE) == O_RDWR);
	if (!S_ISREG(st.st_mode) || written)
		return 0; // truncate(2) takes regular files; a written one is the program's anyway
	if (fstatfs(fd, &fs) < 0)
		return 1;
	return !(fs.f_flags & ST_RDONLY);
}

// omega_refuse_host_dirs ends the launch when a directory is among the
// fds the program gets (stdin, stdout, stderr, --preserve-fds): it is the
// host's, outside the new mounts, and through /proc/self/fd/N the program
// would reach the host's tree above and below it — a hidden credential
// store's contents, host sockets (the broker allows the host's mounts),
// modes and times the read-only root keeps. hostfds_linux.go's
// refuseHostDirs is the Go stage's.
void omega_refuse_host_dirs(const struct spec *s) {
	static const char *const what[] = {"stdin", "stdout", "stderr"};
	for (int fd = 0; fd < 3 + (int)s->keep_fds; fd++) {
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		char link[32], dir[4096];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, dir, sizeof dir - 1);
		dir[n > 0 ? n : 0] = 0;
		omega_die(125,
		          "fd %d (%s) is the directory %s: through it the program would reach the host's files "
		          "around the sandbox (hidden credential stores, host sockets, file modes); give it the "
		          "path instead (--allow-write for writes)",
		          fd, fd < 3 ? what[fd] : "--preserve-fds", n > 0 ? dir : "?");
	}
}

// omega_landlock_writes_only narrows the plan once the read-only root is
// in place (wire flag WritesOnly): read and execute are allowed everywhere
// anyway and the mounts stop truncation, so without the read-side rights
// the kernel skips its path walk on every open that does not write. Not
// where the program still reaches a host mount that is not read-only: an
// inherited fd (stdin from a file, --preserve-fds) or the old working
// directory (old_cwd) lead to it through /proc/self/fd or relative paths,
// and there only Landlock's TRUNCATE stops truncate(2) and O_TRUNC.
void omega_landlock_writes_only(struct spec *s, int old_cwd) {
	if (!(s->flags & F_WRITES_ONLY) || !s->ll.handled_access_fs)
		return;
	if (old_cwd && on_writable_mount(AT_FDCWD))
		return;
	for (int fd = 0; fd < 3 + (int)s->keep_fds; fd++)
		if (on_writable_mount(fd))
			return;
	s->ll.handled_access_fs &= ~(uint64_t)OMEGA_LL_READ_SIDE;
	for (uint32_t i = 0; i < s->nrules; i++)
		s->rules[i].access &= s->ll.handled_access_fs;
}

// written_file tells whether a stream rule's /proc/self/fd/N is, in this
// process, a regular file or a terminal open for writing
// (landlock.MissingStream, WrittenStreams): the launcher planned it from
// its own fd N, and a library caller's command may have another there (a
// pipe, a file opened read-only).
static int written_file(const char *path) {
	int fd, n = 0;
	if (sscanf(path, "/proc/self/fd/%d%n", &fd, &n) != 1 || path[n] != 0)
		return 0;
	int fl = fcntl(fd, F_GETFL);
	struct stat st;
	return fl >= 0 && ((fl & O_ACCMODE) == O_WRONLY || (fl & O_ACCMODE) == O_RDWR) &&
	       ((fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) || isatty(fd));
}

// rule_root opens a rule's path (O_PATH). A writable root (MISSING_SKIPPED)
// other than the stage's own /dev/shm is opened without following
// symlinks, as heldRoots does: the parent resolved it, so a symlink found
// now was swapped in since — by another confined run sharing the
// directory — and must not redirect the rule where the user did not say.
static int rule_root(const struct rule *r) {
	if (r->missing != MISSING_SKIPPED || strcmp(r->path, OMEGA_LL_DEVICE_DIR) == 0)
		return openat(AT_FDCWD, r->path, O_PATH | O_CLOEXEC);
	int fd = omega_open_nofollow(r->path);
	if (fd < 0 && errno == ELOOP)
		omega_dief(ELOOP, "landlock: writable root %s: a symlink appeared on its path after omega-run checked it "
		                  "(a confined program may have made it)", r->path);
	if (fd < 0 && errno != ENOENT)
		omega_dief(errno, "landlock: writable root open %s", r->path);
	return fd;
}

// landlock_prepare builds the planned ruleset (after the mounts, so that
// /dev/pts and /dev/shm are the new ones; before the user switch, so that
// every path can still be opened). -1 when there is nothing to enforce.
static int landlock_prepare(const struct spec *s) {
	if (!enforces_landlock(s))
		return -1;
	int fd = syscall(SYS_landlock_create_ruleset, &s->ll, sizeof s->ll, 0);
	if (fd < 0)
		omega_dief(errno, "landlock: landlock_create_ruleset");
	for (uint32_t i = 0; i < s->nrules; i++) {
		const struct rule *r = &s->rules[i];
		if (r->access == 0)
			continue; // narrowed away (omega_landlock_writes_only)
		if (r->missing == MISSING_STREAM && !written_file(r->path))
			continue;
		int pfd = rule_root(r);
		if (pfd < 0) {
			if (r->missing == MISSING_IGNORED || r->missing == MISSING_STREAM ||
			    (r->missing == MISSING_SKIPPED && errno == ENOENT))
				continue;
			omega_dief(errno, "landlock: populating ruleset for \"%s\": open", r->path);
		}
		struct omega_path_beneath pb = {r->access, pfd};
		if (syscall(SYS_landlock_add_rule, fd, OMEGA_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			if (r->missing == MISSING_STREAM) { // a memfd: no rule, as WrittenStreams would have left it out
				close(pfd);
				continue;
			}
			omega_dief(errno, "landlock: populating ruleset for \"%s\": landlock_add_rule", r->path);
		}
		close(pfd);
	}
	return fd;
}

// omega_bpf_insns is the instruction count of a BPF program of len bytes
// for sock_fprog, whose count has 16 bits: it refuses (what: …) a program
// the kernel could not take whole rather than cut it.
unsigned short omega_bpf_insns(const char *what, uint32_t len) {
	uint32_t n = len / sizeof(struct sock_filter);
	if (n == 0)
		omega_die(125, "%s: empty program", what);
	if (len % sizeof(struct sock_filter))
		omega_die(125, "%s: BPF program of %u bytes is not a whole number of instructions", what, len);
	if (n > BPF_MAXINSNS)
		omega_die(125, "%s: %u instructions, the kernel takes at most %d", what, n, BPF_MAXINSNS);
	return (unsigned short)n;
}

// omega_landlock_abi is the kernel's Landlock ABI; below 1 without one.
int omega_landlock_abi(void) {
	return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, 1U); // LANDLOCK_CREATE_RULESET_VERSION
}

// omega_seccomp_try installs a BPF program for every thread: 0, or what
// omega_seccomp_install dies of.
long omega_seccomp_try(const struct sock_filter *bpf, uint32_t len, uint32_t flags) {
	struct sock_fprog prog = {omega_bpf_insns("seccomp: install", len), (struct sock_filter *)bpf};
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC | flags, &prog);
}

// omega_seccomp_install installs a BPF program for every thread.
void omega_seccomp_install(const struct sock_filter *bpf, uint32_t len, uint32_t flags) {
	long r = omega_seccomp_try(bpf, len, flags);
	if (r < 0 && errno == EACCES)
		omega_die(125, "seccomp: install: permission denied (no_new_privs is not set)");
	if (r < 0 && errno == ENOSYS) // install_linux.go's words
		omega_die(125, "seccomp: install: %s (the kernel has no seccomp, or a filter around omega-run refuses it; "
		               "--seccomp none runs without a filter)", omega_errstr(ENOSYS));
	if (r < 0 && errno == EINVAL)
		omega_die(125, "seccomp: install: %s (kernel without CONFIG_SECCOMP_FILTER, or a flag it does not know)", omega_errstr(EINVAL));
	if (r < 0 && errno == EPERM) // install_linux.go's refusedByFilter
		omega_die(125, "seccomp: install: %s: a seccomp filter around omega-run refuses it (systemd's SystemCallFilter=: "
		               "allow seccomp), or an LSM does; --seccomp none runs without a filter", omega_errstr(EPERM));
	if (r < 0)
		omega_dief(errno, "seccomp: install");
	if (r > 0)
		omega_die(125, "seccomp: install: thread %ld could not be synchronised", r);
}

// omega_new_session_keyring is keyring_linux.go's newSessionKeyring: an
// empty session keyring of the sandbox's own, since the caller's holds keys
// (a Kerberos KEYRING: cache) that a profile allowing keyctl would let the
// program read as their possessor.
void omega_new_session_keyring(void) {
	// KEYCTL_JOIN_SESSION_KEYRING (1) with a NULL name: a new anonymous one.
	if (syscall(SYS_keyctl, 1, NULL) >= 0)
		return;
	int err = errno;
	// KEYCTL_GET_KEYRING_ID (0) of KEY_SPEC_SESSION_KEYRING (-3): when it
	// fails too, keyctl itself is refused (no keyrings: ENOSYS; a filter
	// around omega-run: EPERM, EACCES), and the program, which inherits
	// that filter, cannot read the keys either.
	if (syscall(SYS_keyctl, 0, -3, 0) >= 0) {
		char msg[200];
		snprintf(msg, sizeof msg, "the program keeps your session keyring (keyctl: %s); a seccomp profile that allows keyctl lets it read the keys there", omega_errstr(err));
		omega_warn(msg);
	}
}

// omega_install_profile installs the program's seccomp profile, after
// its limits, which a custom profile may forbid setting (kill on
// prlimit64): in the process that becomes the program, and in PID 1 once
// it has forked that (cinit_pid1.c).
void omega_install_profile(const struct spec *s) {
	if ((s->flags & F_SECCOMP) && !(s->flags & F_PLAIN))
		omega_seccomp_install(s->bpf, s->bpf_len, s->seccomp_flags);
}

// omega_confine is confine_linux.go's confine, in its order: bounding set (needs
// CAP_SETPCAP), Landlock ruleset built, user switch (CAP_SETUID), the other
// capabilities, no_new_privs, Landlock enforced; seccomp comes last
// (omega_install_profile).
void omega_confine(const struct spec *s) {
	int ruleset = -1;
	if (!(s->flags & F_PLAIN)) {
		omega_drop_bounding();
		ruleset = landlock_prepare(s);
	}
	if (s->flags & F_USER) {
		int pdeath = 0;
		if (prctl(PR_GET_PDEATHSIG, &pdeath, 0, 0, 0) < 0)
			omega_dief(errno, "--user: prctl(PR_GET_PDEATHSIG)");
		if (setgroups(s->ngroups, s->groups) < 0)
			omega_dief(errno, "--user: setgroups");
		if (setresgid(s->gid, s->gid, s->gid) < 0)
			omega_dief(errno, "--user: setresgid");
		if (setresuid(s->uid, s->uid, s->uid) < 0)
			omega_dief(errno, "--user: setresuid");
		// Changing ids resets dumpable to fs.suid_dumpable, which may be
		// 1: the program, with these ids, could then ptrace PID 1 (and
		// its connect broker). omega_run_init said 0 before; again.
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			omega_dief(errno, "--user: prctl(PR_SET_DUMPABLE)");
		// It clears the parent-death signal too: a SIGKILL of omega-run
		// would leave the sandbox running.
		if (pdeath && prctl(PR_SET_PDEATHSIG, pdeath, 0, 0, 0) < 0)
			omega_dief(errno, "--user: prctl(PR_SET_PDEATHSIG)");
		// The signal is lost if omega-run died meanwhile: die as it
		// would have made this process die.
		if (omega_parent_gone() && pdeath)
			_exit(128 + pdeath);
	}
	if (s->flags & F_PLAIN)
		return;
	clear_capabilities();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		omega_dief(errno, "prctl(PR_SET_NO_NEW_PRIVS)");
	if (ruleset >= 0) {
		if (syscall(SYS_landlock_restrict_self, ruleset, s->ll_flags) < 0) {
			if (errno == E2BIG)
				omega_dief(errno, "landlock: too many nested rulesets");
			omega_dief(errno, "landlock: restrict_self");
		}
		close(ruleset);
	} else if (s->flags & F_FAIL_CLOSED) {
		omega_die(125, "landlock: unavailable and --fail-closed is set");
	}
}
