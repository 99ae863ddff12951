//go:build linux && cgo && !omega_goinit

// cinit_procopts.c: what the sandbox's fresh /proc keeps of the one
// omega-run was given (procopts_linux.go in Go).

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cinit_internal.h"

// keep_opt appends opt to out (comma-separated) when it is one the
// sandbox's /proc keeps: hidepid= and subset=, which a unit's
// ProtectProc= and ProcSubset= set (a fresh /proc would show again what
// they hide). gid= is left out: it would let a group see more.
static void keep_opt(const char *opt, char *out, size_t n) {
	if (strncmp(opt, "hidepid=", 8) != 0 && strncmp(opt, "subset=", 7) != 0)
		return;
	size_t at = strlen(out);
	snprintf(out + at, n - at, "%s%s", at ? "," : "", opt);
}

// omega_proc_options fills out with the hidepid= and subset= options of
// the topmost proc mounted on /proc ("" where none): procOptions.
void omega_proc_options(char *out, size_t n) {
	out[0] = 0;
	// The usual /proc, subset= unset, shows /proc/sys: nothing to keep
	// that matters, and mountinfo's text (every mount of the namespace)
	// stays ungenerated on each launch's path. hidepid= alone changes
	// nothing in a fresh /proc of the sandbox's pid namespace, whose
	// processes are all the program's user's.
	if (access("/proc/sys", F_OK) == 0)
		return;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (f == NULL)
		return;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		struct omega_mountinfo m; // a line not understood is skipped, as procOptions does
		if (omega_mountinfo_line(line, &m) < 0 || strcmp(m.point, "/proc") != 0 || strcmp(m.fstype, "proc") != 0)
			continue;
		out[0] = 0; // a later mount on /proc covers this one
		char *osave = NULL;
		for (char *o = strtok_r(m.super, ",", &osave); o; o = strtok_r(NULL, ",", &osave))
			keep_opt(o, out, n);
	}
	free(line);
	fclose(f);
}
