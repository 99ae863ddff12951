package sandbox

import "slices"

// tmpdirEnv is TMPDIR=/tmp for a program confined by Landlock alone (rx,
// and sandbox fallbacks without the read-only root), where the
// environment has no TMPDIR: Landlock does not answer access(2), so
// /var/tmp looks writable there, and SQLite, which looks in /var/tmp
// before /tmp, put its temp files where the open then failed ("unable to
// open database file": codex's state migrations). A TMPDIR the user set
// or unset, --clearenv, or a writable /var/tmp is left alone.
func tmpdirEnv(p *plan, mounts bool) []string {
	pol, pr := p.policy, p.process
	if mounts || pr.ClearEnv || slices.Contains(pr.UnsetEnv, "TMPDIR") ||
		pol.WritableRootOf("/var/tmp") != "" || pol.WritableRootOf("/tmp") == "" {
		return nil
	}
	if _, set := pr.lookupEnv("TMPDIR"); set {
		return nil
	}
	return []string{"TMPDIR=/tmp"}
}
