package main

import (
	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/sandbox"
)

// escapeNames escapes, value by value, what in e a confined program may
// have named (a repository it made below a writable root, whose
// .git/config is listed; git dirs in warnings): safeLines escapes each
// line, but a newline inside a name would already have split it into a
// line of its own that forges one of explain's. The seccomp rules are
// omega-run's own multi-line text and stay as they are.
func escapeNames(e sandbox.Explanation) sandbox.Explanation {
	for _, s := range []*string{&e.DataDir, &e.Program, &e.Workdir, &e.WorkdirFix, &e.PrivateTmp, &e.UnixSockets, &e.Seccomp} {
		*s = termsafe.String(*s)
	}
	for _, l := range []*[]string{&e.Args, &e.Writable, &e.Hidden, &e.ReadOnly, &e.AllowedSockets, &e.Service,
		&e.Env, &e.Sources, &e.RefusedState, &e.Warnings} {
		*l = escapeAll(*l)
	}
	return e
}

func escapeAll(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = termsafe.String(s)
	}
	return out
}
