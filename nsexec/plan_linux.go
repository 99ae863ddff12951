package nsexec

import (
	"fmt"
	"slices"
	"strings"
)

// MountPlan is what the init stage mounts in sandbox mode, worked out by
// the parent (which paths exist, which are files) so that the init stage
// only mounts.
type MountPlan struct {
	// Writable roots stay read-write; the rest of the root is remounted
	// read-only.
	Writable []string
	// TmpFrom is bound onto /tmp, so the program gets a private /tmp that
	// survives it for inspection (<data-dir>/tmp).
	TmpFrom string
	// FreshRun replaces /run with an empty tmpfs: host service sockets
	// (docker, dbus, ssh-agent, systemd) live there.
	FreshRun bool
	// Required: the caller asked for masks or read-only paths (--hide,
	// --read-only), so a mount namespace that refuses to mount ends the
	// launch instead of falling back without them.
	Required bool
	// TmpdirIfRefused adds TMPDIR=/tmp to the program's environment when
	// the mounts are refused (Ubuntu's AppArmor userns restriction): the
	// program then has Landlock alone, as in rx, where access(2) says
	// /var/tmp is writable (sandbox's tmpdirEnv decides, as for rx).
	TmpdirIfRefused bool
	// Keep are host paths under /run or /tmp that stay visible in the new
	// ones: name resolution files, each --allow-socket, and writable roots
	// below /run (RunWritable), which are made writable again there.
	Keep []string
	// HideDirs become empty read-only directories, HideFiles empty
	// read-only files (credential stores, --hide).
	HideDirs  []string
	HideFiles []string
	// ReadOnly are bound read-only: --read-only, and files that run code
	// later outside the sandbox (.git/hooks, .envrc, …).
	ReadOnly []string
	// Pin are directories between a ReadOnly path and its writable root,
	// shallowest first, each bound onto itself: a mount point cannot be
	// renamed, so the read-only path cannot be moved aside and replaced.
	Pin []string
}

// RunWritable tells whether a writable root lies strictly below /run (or
// a /var/run that is a directory): the empty /run covers it, so it is
// kept (bound back into the new /run) and made writable there. /run
// itself is not: that would bring back every host service socket.
func RunWritable(p string) bool {
	return strings.HasPrefix(p, "/run/") || strings.HasPrefix(p, "/var/run/")
}

// Unprotected names what a sandbox without its mounts leaves open: the
// masked stores readable, the files kept read-only inside writable roots
// (the config file, .git/config, .envrc, --read-only) writable.
func (m *MountPlan) Unprotected() string {
	var b strings.Builder // in the C init stage's order
	if len(m.ReadOnly) > 0 {
		b.WriteString("; writable, though kept read-only in the sandbox: " + listSome(m.ReadOnly))
	}
	if hidden := slices.Concat(m.HideDirs, m.HideFiles); len(hidden) > 0 {
		b.WriteString("; readable: " + listSome(hidden))
	}
	return b.String()
}

// listSome joins the first few paths of a list that may hold thousands
// (every host socket a local user bound), so that the warning stays a line.
func listSome(paths []string) string {
	const most = 12
	if len(paths) <= most {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:most], ", ") + fmt.Sprintf(" and %d more", len(paths)-most)
}
