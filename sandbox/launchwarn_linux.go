package sandbox

import (
	"os"
	"slices"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/nsexec"
)

// logGrantWarnings logs what the user's own settings leave open; they are
// no --fail-closed errors, as nothing fails to be enforced.
func logGrantWarnings(p *plan, canon map[string]string) {
	canonReal := func(path string) string {
		if r, ok := canon[path]; ok {
			return r
		}
		return realPath(path)
	}
	if w := homeWritableWarning(p.policy, canonReal); w != "" {
		logrus.Warn(w) // the user's own grant: not a --fail-closed error
	}
	// To a terminal only, as the working directory's: it is for the user
	// whose shell runs PATH later, and resolving each entry costs ≈ 0.1 ms
	// a launch that agents and services would pay on every command.
	if stderrTerminal() {
		if w := pathWritableWarning(p.policy, os.Getenv("PATH"), launchWorkdir(p), canonReal); w != "" {
			logrus.Warn(w) // the user's own grant, as above
		}
	}
	if w := logDenialsWarning(p.policy, landlock.EffectiveABI()); w != "" {
		logrus.Warn(w) // diagnostics, not enforcement
	}
}

// logWorkdirWarning says, to a terminal, that the program cannot write in
// its working directory — unless the mount plan keeps that directory,
// whose own warning says so and how to fix it (keepWorkdir); the fallback
// without mounts says none of that, and this one then (held in
// fallbackNotes where the clone tells which launch runs).
func logWorkdirWarning(p *plan, spec *nsexec.Spec, mounts bool) {
	wd := launchWorkdir(p)
	if !stderrTerminal() {
		return
	}
	kept := spec.Mounts != nil && slices.Contains(spec.Mounts.Keep, realPath(wd))
	w := workdirWarning(p.policy, wd, p.workdir != "" || p.changedDir, realPath)
	switch {
	case w == "":
	case !kept || !mounts:
		logrus.Warn(w) // usability, not enforcement
	case p.deferWarnings:
		p.fallbackNotes = append(p.fallbackNotes, w)
	}
}
