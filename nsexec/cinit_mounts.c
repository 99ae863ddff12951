//go:build linux && cgo && !omega_goinit

// cinit_mounts.c: the C init stage's mounts (mounts_linux.go in Go): the
// host root made read-only but for the writable roots, a fresh /run and
// /proc, then cinit_masks.c's /dev, masks and read-only binds (the mount
// helpers both use are in cinit_mount_util.c). Every path the parent
// sends is canonical and opened without following symlinks.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

// held is a host path kept open (O_PATH) across the mounts that cover it.
struct held {
	const char *path;
	int fd, dir;
};

// hold opens every path that still exists; gone ones are skipped.
static int hold(const struct strs *paths, struct held *out) {
	int n = 0;
	for (uint32_t i = 0; i < paths->n; i++) {
		struct stat st;
		int fd = omega_open_nofollow(paths->v[i]);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0) {
			int e = errno;
			for (int j = 0; j < n; j++)
				close(out[j].fd);
			return omega_nofollow_fail(e, "hold", paths->v[i]);
		}
		if (fstat(fd, &st) < 0) {
			int e = errno;
			close(fd);
			return omega_step_fail(e, "fstat %s", paths->v[i]);
		}
		out[n++] = (struct held){paths->v[i], fd, S_ISDIR(st.st_mode)};
	}
	return n;
}

static void release(struct held *h, int n) {
	for (int i = 0; i < n; i++)
		close(h[i].fd);
}

static int mount_point(const char *path, int dir);

// target_of maps a bind source back to where it appears inside.
static const char *target_of(const struct spec *s, const char *src) {
	return s->tmp_from[0] && strcmp(src, s->tmp_from) == 0 ? "/tmp" : src;
}

// make_writable clears the read-only flag of the mount at the writable
// root t (canonical, reached without following symlinks); a t that is
// gone is only less to write where gone_ok.
static int make_writable(const char *t, int gone_ok) {
	int fd = omega_open_nofollow(t);
	if (fd < 0 && gone_ok && errno == ENOENT)
		return 0;
	if (fd < 0)
		return omega_nofollow_fail(errno, "writable root", t);
	int r = omega_set_attr_fd(fd, t, 0, 0, OMEGA_MOUNT_ATTR_RDONLY, "rw");
	close(fd);
	return r;
}

#define ROOT_ATTRS (OMEGA_MOUNT_ATTR_RDONLY | OMEGA_MOUNT_ATTR_NOSUID | OMEGA_MOUNT_ATTR_NODEV)

// read_only_root makes every mount read-only except the writable roots,
// held by fd first because the private /tmp may cover one; /tmp is bound
// first so that roots below it land on top of the private one.
static int read_only_root(const struct spec *s) {
	struct strs src = {s->writable.n, omega_alloc(s->writable.n, sizeof(char *))};
	struct held *h = omega_alloc(s->writable.n, sizeof *h);
	for (uint32_t i = 0; i < src.n; i++)
		src.v[i] = strcmp(s->writable.v[i], "/tmp") == 0 && s->tmp_from[0] ? s->tmp_from : s->writable.v[i];
	int n = hold(&src, h), rc = -1;
	if (n < 0)
		return -1;
	// A gone writable root is only less to write; a gone private /tmp
	// would leave the host's /tmp in sight.
	int tmp = !s->tmp_from[0];
	for (int i = 0; i < n && !tmp; i++)
		tmp = strcmp(h[i].path, s->tmp_from) == 0;
	if (!tmp) {
		omega_step_fail(ENOENT, "the sandbox's /tmp, %s, is gone (moved by another run?)", s->tmp_from);
		goto out;
	}
	for (int i = 1; i < n; i++) { // stable insertion sort by target length
		struct held x = h[i];
		int j = i;
		for (; j > 0 && strlen(target_of(s, h[j - 1].path)) > strlen(target_of(s, x.path)); j--)
			h[j] = h[j - 1];
		h[j] = x;
	}
	// Everything read-only first, while no bind covers a mount yet (the
	// remount fallback reaches mounts by path). nodev and nosuid as
	// bubblewrap's --ro-bind: a device node outside /dev (a chroot, an
	// image) would let a root-run sandbox read a disk past --hide; only
	// the private /dev's own nodes work.
	if (omega_set_attr("/", AT_RECURSIVE, ROOT_ATTRS, 0, "RDONLY|NOSUID|NODEV") < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		// Below /tmp the mount point is in the private /tmp, which a
		// program may have filled with symlinks: none is followed. It
		// is writable by then: /tmp comes first.
		const char *t = target_of(s, h[i].path);
		int at = mount_point(t, h[i].dir);
		if (at < 0) {
			char inner[sizeof omega_step_msg];
			snprintf(inner, sizeof inner, "%s", omega_step_msg);
			// Below /tmp the culprit is in the private /tmp on the host.
			char host[sizeof omega_step_msg] = "";
			if (s->tmp_from[0] && strncmp(t, "/tmp/", 5) == 0)
				snprintf(host, sizeof host, " (%s%s)", s->tmp_from, t + 4);
			omega_step_fail(omega_step_err, "mount point %s%s: %s", t, host, inner);
			goto out;
		}
		char dst[32];
		snprintf(dst, sizeof dst, "/proc/self/fd/%d", at);
		int b = omega_bind_fd(h[i].fd, dst, MS_REC);
		close(at);
		if (b < 0) { // name the path, not the fds
			omega_bind_failed("bind", t);
			goto out;
		}
		if (make_writable(t, 0) < 0)
			goto out;
	}
	rc = 0;
out:
	release(h, n);
	return rc;
}

// fresh_run hides the host's service sockets behind an empty /run (and
// /var/run where that is a directory rather than the usual symlink).
static int fresh_run(const struct spec *s) {
	static const char *dirs[] = {"/run", "/var/run"};
	if (!(s->flags & F_FRESH_RUN))
		return 0;
	for (int i = 0; i < 2; i++) {
		struct stat st;
		if (lstat(dirs[i], &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (omega_mount("tmpfs", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") < 0)
			return -1;
	}
	return 0;
}

// mount_point creates path's missing directories and the path itself (an
// empty file, or a directory) without following any symlink, and returns
// an O_PATH fd of it to mount onto: the private /tmp persists between
// runs, and a symlink a program left there must not redirect a bind.
// path is canonical (the parent resolved it on the host).
static int make_mount_point(const char *path, int dir) {
	// Usually all there from an earlier run: one openat2, no walk.
	int fd = omega_open_existing(path);
	if (fd >= 0) {
		struct stat st;
		if (fstat(fd, &st) == 0 && !!S_ISDIR(st.st_mode) == !!dir)
			return fd;
		close(fd); // the walk says what is wrong
	}
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	// Failing here (EMFILE under a small ulimit -n) must say so: the
	// caller's message is this one.
	if ((fd = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return omega_step_fail(errno, "open /");
	for (char *name = buf + 1, *end; *name; name = end) {
		end = strchr(name, '/');
		int last = !end;
		if (end)
			*end++ = 0;
		else
			end = name + strlen(name);
		if (!last || dir) {
			if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST) {
				close(fd);
				return omega_step_fail(errno, "mkdir %s", path);
			}
		} else {
			int f = openat(fd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (f >= 0)
				close(f);
			else if (errno != EEXIST) {
				close(fd);
				return omega_step_fail(errno, "create %s", path);
			}
		}
		int next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), e = errno;
		close(fd);
		struct stat st;
		if (next < 0)
			return omega_step_fail(e, "open %s", path);
		if (fstat(next, &st) < 0) {
			e = errno;
			close(next);
			return omega_step_fail(e, "fstat %s", path);
		}
		if (S_ISLNK(st.st_mode) || (!last || dir) != !!S_ISDIR(st.st_mode)) {
			close(next);
			return omega_step_fail(S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR,
			                       "a symlink or another kind of file is in the way at %s (left by an earlier run?)", name);
		}
		fd = next;
	}
	return fd;
}

// mount_point is make_mount_point with its modes whatever the caller's
// umask (the program's, restored after): under 0777 the directories were
// 0000, kept in the private /tmp for later runs, and the program could
// not reach what was bound below them (mounts_linux.go's mountPoint).
static int mount_point(const char *path, int dir) {
	mode_t old = umask(0);
	int fd = make_mount_point(path, dir);
	umask(old);
	return fd;
}

// rebind puts each held path back at its place in the new /run or /tmp.
static int rebind(struct held *h, int n) {
	for (int i = 0; i < n; i++) {
		int at = mount_point(h[i].path, h[i].dir);
		if (at < 0) {
			char inner[sizeof omega_step_msg];
			snprintf(inner, sizeof inner, "%s", omega_step_msg);
			return omega_step_fail(omega_step_err, "keep %s: %s", h[i].path, inner);
		}
		char dst[32];
		snprintf(dst, sizeof dst, "/proc/self/fd/%d", at);
		int rc = omega_bind_fd(h[i].fd, dst, 0);
		close(at);
		if (rc < 0)
			return omega_bind_failed("keep", h[i].path);
	}
	return 0;
}

// writable_run clears the read-only flag that the writable roots below
// /run took over from the root when rebind brought them back (RunWritable).
static int writable_run(const struct spec *s) {
	for (uint32_t i = 0; i < s->writable.n; i++) {
		const char *w = s->writable.v[i];
		if (strncmp(w, "/run/", 5) != 0 && strncmp(w, "/var/run/", 9) != 0)
			continue;
		if (make_writable(w, 1) < 0) // gone since the plan: only less to write
			return -1;
	}
	return 0;
}

// PROC_FLAGS mount the fresh /proc read-only: Landlock already refuses
// the program every write there, but where Landlock is missing a root-run
// sandbox would otherwise reach the host's sysctls (core_pattern).
#define PROC_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)

// fresh_proc mounts the sandbox's /proc, hiding what the one omega-run
// was given hides (omega_proc_options). A kernel refuses a new proc
// (EPERM) where the host's has parts covered, as in a container; then the
// host's stays, read-only with the root (1), unless the spec fails closed.
static int fresh_proc(const struct spec *s) {
	char opts[256];
	omega_proc_options(opts, sizeof opts);
	if (s->flags & F_PID1)
		omega_oom_hold();
	if (omega_mount("proc", "/proc", "proc", PROC_FLAGS, opts[0] ? opts : NULL) == 0)
		return 0;
	if (omega_step_err == EPERM && (s->flags & F_FAIL_CLOSED)) // mounts_linux.go's words
		omega_die(125, "mounts: --fail-closed: a fresh /proc could not be mounted (%s: %s): the sandbox would see "
		               "the host's /proc, which lists every process",
		          omega_step_msg, omega_errstr(EPERM));
	return omega_step_err == EPERM ? 1 : -1;
}

// FILTER_MOUNT_HINT is said where a seccomp filter around omega-run may
// be what refused the mount (mounts_linux.go's filterMountHint).
#define FILTER_MOUNT_HINT "a seccomp filter around omega-run may refuse mount (systemd's SystemCallFilter= without @mount: add it), or "

// omega_setup_mounts is mounts_linux.go's setupMounts: the host root stays the
// root; paths to keep are held by fd before anything covers them, the
// root goes read-only before /proc and /dev are mounted on it, and masks
// come last so nothing mounts over them. 1: all but a fresh /proc; -2:
// refused before anything changed; -1: failed halfway.
int omega_setup_mounts(const struct spec *s) {
	// Nothing mounted here may propagate back to the host.
	if (omega_mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -2;
	struct held *kept = omega_alloc(s->keep.n, sizeof *kept);
	int n = hold(&s->keep, kept), rc = -1, proc = -1;
	if (n < 0)
		return -1;
	if (read_only_root(s) == 0 && fresh_run(s) == 0 && rebind(kept, n) == 0 && writable_run(s) == 0 &&
	    (proc = fresh_proc(s)) >= 0 && omega_setup_dev() == 0 && omega_hide(s) == 0 && omega_read_only_binds(s) == 0)
		rc = proc;
	release(kept, n);
	return rc;
}

// HOST_PROC, HOST_PROC_OOM and HOST_PROC_REST are mounts_linux.go's
// hostProcWarning, hostProcOOM and hostProcRest.
#define HOST_PROC                                                                                                 \
	"a fresh /proc could not be mounted (the host's has parts covered, as in a container): the sandbox sees the " \
	"host's /proc, read-only, which lists every process"
#define HOST_PROC_OOM ", and the program keeps PID 1's OOM score (below)"
#define HOST_PROC_REST "; everything else is in place"

// warn_host_proc says that the sandbox kept the host's /proc, and, where
// PID 1 got no proc of its own either, that the OOM score's warning
// follows: "everything else" is the rest.
static void warn_host_proc(const struct spec *s) {
	if ((s->flags & F_PID1) && omega_oom_unheld())
		omega_warn(HOST_PROC HOST_PROC_OOM HOST_PROC_REST);
	else
		omega_warn(HOST_PROC HOST_PROC_REST);
}

// ROOT_METADATA_GAP is what a root program has without the read-only
// root (entermounts_linux.go's rootMetadataGap): Landlock has no rights
// for metadata, and root owns most files.
#define ROOT_METADATA_GAP                                                                                      \
	"; the program runs as root, and Landlock does not stop chmod, utimes or xattrs: it may change the mode " \
	"of any root-owned file (chmod 666 /etc/shadow); use --user"

// FAIL_CLOSED_MOUNTS is --fail-closed's refusal of the fallback without
// mounts (entermounts_linux.go's failClosedMounts).
#define FAIL_CLOSED_MOUNTS                                                                                     \
	"--fail-closed: mount namespace unusable (%s: %s): /proc, /dev, /run, /tmp and host sockets would be the " \
	"host's, and nothing kept read-only"

// tmpdir_first puts TMPDIR=/tmp before the spec's additions
// (entermounts_linux.go's mountsRefused does the same), which the parent
// left out for the mounts.
static void tmpdir_first(struct spec *s) {
	const char **v = omega_alloc(s->env.n + 1, sizeof *v); // n + 2 slots
	v[0] = "TMPDIR=/tmp";
	memcpy(v + 1, s->env.v, (s->env.n + 1) * sizeof *v); // with its NULL
	s->env.v = v, s->env.n++;
}

// omega_enter_mounts sets up the mount namespace and goes back to the working
// directory in it. A namespace without privilege (EPERM) leaves the
// host's tree with a warning unless the spec says fail closed.
void omega_enter_mounts(struct spec *s) {
	omega_refuse_hidden_wd(s);
	char *wd = omega_getwd_go(), msg[8192];
	int oldwd = openat(AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC), rc = omega_setup_mounts(s), mounted = rc == 0;
	if (rc == 1)
		warn_host_proc(s); // Landlock keeps its full ruleset: host processes' fds are in sight
	if (rc < 0) {
		// Halfway, the tree is neither the host's nor the sandbox's (a
		// nodev /dev, a read-only /tmp): never run the program in it.
		if (rc == -1 || omega_step_err != EPERM)
			omega_die(125, "mounts: %s: %s", omega_step_msg, omega_errstr(omega_step_err));
		if (s->flags & F_FAIL_CLOSED)
			omega_die(125, FAIL_CLOSED_MOUNTS, omega_step_msg, omega_errstr(omega_step_err));
		if (s->flags & F_MOUNTS_REQUIRED)
			omega_die(125, "mounts: %s: %s: --hide and --read-only need the sandbox's mounts; on Ubuntu allow user "
			          "namespaces for omega-run with an AppArmor profile (see README), or drop them",
			          omega_step_msg, omega_errstr(omega_step_err));
		// Ubuntu's AppArmor userns restriction: clone worked but the
		// namespace holds no privilege. Landlock, where there is one,
		// still confines writes.
		char lost[6144]; // cut short (…) only past some 60 long paths
		omega_unprotected(s, lost, sizeof lost);
		int abi = omega_landlock_abi();
		uid_t uid = (s->flags & F_USER) ? s->uid : getuid(); // the program's
		snprintf(msg, sizeof msg,
		         "mount namespace unusable (%s: %s): /proc, /dev, /run, /tmp and host sockets are the host's%s%s%s; %s"
		         "on Ubuntu allow user namespaces for omega-run with an AppArmor profile (see README)",
		         omega_step_msg, omega_errstr(omega_step_err),
		         abi < 1 ? "; without Landlock either, writes outside the writable set are NOT prevented" : "", lost,
		         uid == 0 ? ROOT_METADATA_GAP : "", prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2 ? FILTER_MOUNT_HINT : "");
		omega_warn(msg);
		// The broker tells the writable set by its mounts.
		s->flags &= ~F_BROKER;
		if (s->flags & F_TMPDIR_IF_REFUSED)
			tmpdir_first(s); // Landlock alone, as in rx: access(2) says /var/tmp is writable
	}
	int e = omega_back_to_wd(s, wd, oldwd, rc);
	if (mounted)
		omega_landlock_writes_only(s, e != 0);
	if (oldwd >= 0)
		close(oldwd);
}
