//go:build linux && cgo && !omega_goinit

// cinit_env.c: what the C init stage prepares for the program: its
// environment and, right before it starts, the resource limits.

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cinit_internal.h"

static size_t key_len(const char *kv) {
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int has_key(const char **list, uint32_t n, const char *kv) {
	size_t k = key_len(kv);
	for (uint32_t i = 0; i < n; i++)
		if (key_len(list[i]) == k && strncmp(list[i], kv, k) == 0)
			return 1;
	return 0;
}

// omega_program_env is env_linux.go's programEnv: the inherited environment
// without the unset names and without keys the spec adds, then the
// additions, of which the last with a key wins.
char **omega_program_env(const struct spec *s, char **inherited) {
	size_t n = 0;
	for (char **e = inherited; e && *e; e++)
		n++;
	char **env = omega_alloc(n + s->env.n, sizeof *env);
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		const char *kv = inherited[i];
		if (has_key(s->env.v, s->env.n, kv))
			continue;
		size_t k = key_len(kv);
		int unset = 0;
		for (uint32_t u = 0; u < s->unsetenv.n && !unset; u++)
			unset = strlen(s->unsetenv.v[u]) == k && strncmp(s->unsetenv.v[u], kv, k) == 0;
		if (!unset)
			env[j++] = (char *)kv;
	}
	for (uint32_t i = 0; i < s->env.n; i++)
		if (!has_key(s->env.v + i + 1, s->env.n - i - 1, s->env.v[i]))
			env[j++] = (char *)s->env.v[i];
	env[j] = NULL;
	return env;
}

static const char *fmt_limit(uint64_t v, char *buf) {
	if (v == RLIM_INFINITY)
		return "unlimited";
	sprintf(buf, "%llu", (unsigned long long)v);
	return buf;
}

// plus is v+n, unless v is unlimited.
static rlim_t plus(rlim_t v, rlim_t n) {
	return v == RLIM_INFINITY || v > RLIM_INFINITY - 1 - n ? v : v + n;
}

static rlim_t min_limit(rlim_t a, rlim_t b) { return a < b ? a : b; }

// own_on_top is ucounts_linux.go's ownOnTop: nproc's given sides get the
// init stage's own tasks on top (own), which count in the namespace too,
// so that the program gets the number asked for; the hard one rises no
// higher than this process's (that takes CAP_SYS_RESOURCE).
static void own_on_top(const struct limit *l, struct rlimit *want, rlim_t own) {
	struct rlimit cur;
	if (l->resource != RLIMIT_NPROC || own == 0 || getrlimit(RLIMIT_NPROC, &cur) < 0)
		return;
	if (l->keep & 2)
		want->rlim_max = cur.rlim_max;
	else if (want->rlim_max < cur.rlim_max)
		want->rlim_max = min_limit(plus(want->rlim_max, own), cur.rlim_max);
	if (!(l->keep & 1))
		want->rlim_cur = min_limit(plus(want->rlim_cur, own), want->rlim_max);
}

// omega_apply_limits is rlimits.Apply, right before the program starts;
// nproc gets own on top (own_on_top).
void omega_apply_limits(const struct spec *s, rlim_t own) {
	for (uint32_t i = 0; i < s->nlimits; i++) {
		const struct limit *l = &s->limits[i];
		char a[24], b[24];
		if (l->resource < 0)
			omega_die(125, "rlimits: %s: no resource number", l->name);
		struct rlimit want = {l->soft, l->hard}, cur;
		own_on_top(l, &want, own);
		if (l->keep) {
			if (getrlimit(l->resource, &cur) < 0)
				omega_dief(errno, "rlimits: %s: getrlimit", l->name);
			// The Go init stage runs with the soft nofile limit raised to
			// the hard one (the Go runtime does that at start-up), and a
			// kept soft limit is taken from there; keep that behaviour.
			if (l->resource == RLIMIT_NOFILE)
				cur.rlim_cur = cur.rlim_max;
			if (l->keep & 1)
				want.rlim_cur = cur.rlim_cur < want.rlim_max ? cur.rlim_cur : want.rlim_max;
			if (l->keep & 2)
				want.rlim_max = cur.rlim_max;
		}
		if (want.rlim_cur > want.rlim_max)
			omega_die(125, "rlimits: %s: soft limit %s would be above hard limit %s", l->name,
			          fmt_limit(want.rlim_cur, a), fmt_limit(want.rlim_max, b));
		if (setrlimit(l->resource, &want) < 0) {
			int e = errno;
			omega_die(125, "rlimits: %s=%s:%s: setrlimit: %s%s", l->name, fmt_limit(want.rlim_cur, a),
			          fmt_limit(want.rlim_max, b), omega_errstr(e),
			          e == EPERM ? " (raising a hard limit needs CAP_SYS_RESOURCE; nofile is capped by fs.nr_open)" : "");
		}
	}
}
