//go:build linux && cgo && !omega_goinit

// cinit_early_wanted.c decides, for cinit_early.c, whether a command line
// will most likely run a program in sandbox mode in an init stage that
// the early start's namespaces fit: from argv, the environment and a quick
// look at the config file, before the Go runtime (so before the CLI has
// parsed anything). A wrong yes costs a start that Go kills again, a
// wrong no the early start; neither changes what runs.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cinit_internal.h"

static const char *const subcommands[] = {"check", "explain", "prompt", "completion", "manpage", "help", NULL};

// flag_value is the value of flag NAME in argv[i] (-NAME, --NAME,
// -NAME=V, --NAME=V), or NULL when argv[i] is another flag.
static const char *flag_value(char **argv, int i, int end, const char *name) {
	const char *a = argv[i];
	while (*a == '-')
		a++;
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != 0)
		return NULL;
	return i + 1 < end ? argv[i + 1] : "";
}

// env_get is getenv on envp (the constructor's, or a test's).
static const char *env_get(char **envp, const char *key) {
	size_t n = strlen(key);
	for (char **e = envp; e && *e; e++)
		if (strncmp(*e, key, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static int env_is(char **envp, const char *key, const char *want) {
	const char *v = env_get(envp, key);
	return !v || !*v || (want && strcmp(v, want) == 0);
}

static int key_cmp(const void *a, const void *b) {
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	for (; *x && *x != '=' && *x == *y; x++, y++)
		;
	int cx = *x == '=' ? 0 : (unsigned char)*x, cy = *y == '=' ? 0 : (unsigned char)*y;
	return cx - cy;
}

// duplicate_env tells whether a variable is set twice (or the check could
// not be made): Go keeps the first and drops the others before the usual
// init stage sees them, the constructor's process has them all.
static int duplicate_env(char **envp) {
	size_t n = 0;
	while (envp && envp[n])
		n++;
	char **keys = malloc((n + 1) * sizeof *keys);
	if (!keys)
		return 1;
	memcpy(keys, envp, n * sizeof *keys);
	qsort(keys, n, sizeof *keys, key_cmp);
	int dup = 0;
	for (size_t i = 1; i < n && !dup; i++)
		dup = key_cmp(&keys[i - 1], &keys[i]) == 0;
	free(keys);
	return dup;
}

// kernel_fs tells whether fd lies on a file system whose regular files
// the kernel makes up (safefile.KernelFile): proc, sysfs, debugfs, tracefs.
static int kernel_fs(int fd) {
	struct statfs fs;
	if (fstatfs(fd, &fs) < 0)
		return 1;
	switch ((unsigned long)fs.f_type) {
	case 0x9fa0: case 0x62656572: case 0x64626720: case 0x74726163:
		return 1;
	}
	return 0;
}

// text_fits is config_fits on the file's text (NUL-terminated; cut up).
static int text_fits(char *buf) {
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		int mode = strncmp(line, "mode", 4) == 0, net = strncmp(line, "net", 3) == 0;
		int pty = strncmp(line, "pty", 3) == 0;
		if (!mode && !net && !pty)
			continue;
		char *v = line + (mode ? 4 : 3);
		v += strspn(v, " \t");
		if (*v != '=')
			continue; // another key (e.g. network_…)
		v++;
		v += strspn(v, " \t\"'");
		if (pty) {
			if (strncmp(v, "true", 4) == 0)
				return 0; // the init stage's stdio is the pseudo-terminal
			continue;
		}
		const char *want = mode ? "sandbox" : "host";
		size_t k = strlen(want);
		if (strncmp(v, want, k) != 0 || strchr("\"' \t#\r", v[k] ? v[k] : ' ') == NULL)
			return 0;
	}
	return 1;
}

// config_fits tells whether the config file at path (absent: yes) leaves
// the mode at sandbox and the network at host. Anything it cannot read,
// or that is not a regular file, simply says no: the launcher then starts
// the init stage itself.
static int config_fits(const char *path) {
	// Only a regular file, looked at through O_PATH and opened only then,
	// as the launcher's openRegular: reading a pipe or a terminal here
	// would take what the CLI is about to read (--config /dev/stdin), and
	// opening a device a program planted has effects (a watchdog, a
	// tape), reading /proc/kmsg takes the kernel's messages.
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || kernel_fs(fd)) {
		close(fd);
		return 0;
	}
	char at[32];
	snprintf(at, sizeof at, "/proc/self/fd/%d", fd);
	int rd = openat(AT_FDCWD, at, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	close(fd);
	if (rd < 0)
		return 0; // no /proc: let the launcher decide
	// On the heap: under a small stack limit (ulimit -s 64) the caller's
	// stack has no room for it, and this runs before Go could say why.
	enum { CONFIG_MAX = 1 << 16 };
	char *buf = malloc(CONFIG_MAX);
	ssize_t n = buf ? read(rd, buf, CONFIG_MAX - 1) : -1;
	close(rd);
	int fits = n >= 0 && n < CONFIG_MAX - 1;
	if (fits) {
		buf[n] = 0;
		fits = text_fits(buf);
	}
	free(buf);
	return fits;
}

static const char *arg_or_env(char **argv, char **envp, int end, const char *flag, const char *env) {
	const char *v = NULL;
	for (int i = 1; i < end; i++)
		if (argv[i][0] == '-' && (v = flag_value(argv, i, end, flag)))
			return v;
	v = env_get(envp, env);
	return v && *v ? v : NULL;
}

// config_path is the config file the CLI will read (settings.go).
static int config_path(char **argv, char **envp, int end, char *out, size_t size) {
	const char *p = arg_or_env(argv, envp, end, "config", "OMEGA_RUN_CONFIG");
	if (p)
		return snprintf(out, size, "%s", p) < (int)size ? 0 : -1;
	const char *dir = arg_or_env(argv, envp, end, "data-dir", "OMEGA_DATA_DIR"), *home = env_get(envp, "HOME");
	if (dir)
		return snprintf(out, size, "%s/config.toml", dir) < (int)size ? 0 : -1;
	if (!home || !*home)
		return -1;
	return snprintf(out, size, "%s/.omega/config.toml", home) < (int)size ? 0 : -1;
}

// wanted tells whether argv will most likely run a program in sandbox
// mode in an init stage that these namespaces fit.
static int wanted(int argc, char **argv, char **envp) {
	int end = 0;
	for (int i = 1; i < argc && !end; i++)
		if (strcmp(argv[i], "--") == 0)
			end = i;
	if (!end || end == argc - 1)
		return 0;
	for (int i = 1; i < end; i++) {
		if (argv[i][0] != '-') {
			for (const char *const *s = subcommands; *s; s++)
				if (strcmp(argv[i], *s) == 0)
					return 0;
			continue;
		}
		const char *v;
		if ((v = flag_value(argv, i, end, "mode")) && strcmp(v, "sandbox") != 0)
			return 0;
		if ((v = flag_value(argv, i, end, "net")) && strcmp(v, "host") != 0)
			return 0;
		// --pty: the init stage's stdio is the launcher's pseudo-terminal.
		static const char *const clone_time[] = {"workdir", "memory", "pids", "cpus", "pty", NULL};
		for (const char *const *s = clone_time; *s; s++)
			if (flag_value(argv, i, end, *s))
				return 0;
	}
	if (!(env_is(envp, "OMEGA_SANDBOX_MODE", "sandbox") && env_is(envp, "OMEGA_RUN_NET", "host") &&
	      env_is(envp, "OMEGA_RUN_WORKDIR", NULL) && env_is(envp, "OMEGA_RUN_MEMORY", NULL) &&
	      env_is(envp, "OMEGA_RUN_PIDS", NULL) && env_is(envp, "OMEGA_RUN_CPUS", NULL) &&
	      env_is(envp, "OMEGA_RUN_PTY", NULL)))
		return 0;
	// A flag or variable sets the mode, or the config file may.
	if (arg_or_env(argv, envp, end, "mode", "OMEGA_SANDBOX_MODE") && arg_or_env(argv, envp, end, "net", "OMEGA_RUN_NET"))
		return 1;
	char path[4096];
	return config_path(argv, envp, end, path, sizeof path) == 0 && config_fits(path);
}

int omega_early_wanted(int argc, char **argv, char **envp) {
	return argc >= 2 && argv && wanted(argc, argv, envp) && !duplicate_env(envp);
}
