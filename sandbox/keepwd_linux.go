package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// keepWorkdir brings the program's working directory back into the
// sandbox, read-only, where it lies below the host's /tmp or /run, which
// the sandbox replaces, and no writable root brings it in. Left out, the
// program stayed in the host's directory below the private one, where no
// mask covers the host's sockets (the host's /tmp and /run count as out
// of reach) and a datagram reached them by a relative path
// (TestWorkdirHostSockets). Kept, it is in the mount plan's Keep, and its
// sockets are masked as any host socket outside /tmp and /run
// (socketSkipper). Not /tmp or /run itself, which would bring back the
// host's whole; nor a directory with a mount below it, which a bind of it
// alone cannot carry (the host's mounts are locked in the sandbox).
func keepWorkdir(plan *nsexec.MountPlan, wd string, aliases *mountAliases) []string {
	real, err := filepath.EvalSymlinks(wd)
	if err != nil || !filepath.IsAbs(real) {
		return nil
	}
	var base string
	switch {
	case plan.TmpFrom != "" && real != "/tmp" && profiles.Within(real, "/tmp"):
		base = "/tmp"
	case plan.FreshRun && privateRun() && real != "/run" && profiles.Within(real, "/run"):
		base = "/run"
	default:
		return nil
	}
	if slices.ContainsFunc(plan.Writable, func(w string) bool { return w != "/tmp" && profiles.Within(real, w) }) ||
		slices.Contains(plan.Keep, real) {
		return nil // in the sandbox already, at its own path
	}
	for point := range aliases.byPoint {
		if point != real && profiles.Within(point, real) {
			return nil // the init stage starts the program in / instead, and says so
		}
	}
	plan.Keep = append(plan.Keep, real)
	return []string{"working directory " + termsafe.String(real) + " is the host's, below the host's " + base +
		" (the sandbox's " + base + keptWorkdirWords + "; --allow-write . makes it writable"}
}

// keptDirs are the directories in plan.Keep that are no writable root:
// the kept working directory (keepWorkdir), whose host sockets are
// masked although it lies below /tmp or /run.
func keptDirs(plan *nsexec.MountPlan) []string {
	var out []string
	for _, k := range plan.Keep {
		if !slices.Contains(plan.Writable, k) && isDir(k) {
			out = append(out, k)
		}
	}
	return out
}

// maxKeptFIFOs bounds the masks for FIFOs in a kept working directory:
// another user who may write it could leave a hundred thousand, a mount
// each.
const maxKeptFIFOs = 1024

// keptFIFOs lists the FIFOs in each kept working directory, to be masked:
// it is read-only, but it lies below the sandbox's /tmp or /run, where
// Landlock lets the program write, and opening a FIFO for writing writes
// nothing to the file system, so the program wrote into a host FIFO there
// (TestWorkdirHostFIFO). Those in a directory below it are not read (a
// walk of the whole tree would cost every launch there its size).
func keptFIFOs(plan *nsexec.MountPlan) []string {
	var out []string
	for _, d := range keptDirs(plan) {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.Type()&fs.ModeNamedPipe != 0 && len(out) < maxKeptFIFOs {
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out
}
