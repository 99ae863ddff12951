package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/omega-run/omega-run/nsexec"
	"golang.org/x/sys/unix"
)

// The host's own layout, which the mount plan adapts to: a /tmp or /run
// that is a symlink or missing, writable roots on read-only mounts.

// sharedTmpNote ends the warnings about a shared /tmp.
const sharedTmpNote = " (its sockets bound before the start are masked; what is bound there later, and every file, is shared)"

// hostRun says when the host's /run is a symlink, which the init stage
// does not cover with its empty /run (hostSockets masks the sockets there).
func hostRun() []string {
	if fi, err := os.Lstat("/run"); err == nil && fi.Mode()&fs.ModeSymlink != 0 && !privateRun() {
		real, _ := filepath.EvalSymlinks("/run")
		return []string{"/run is a symlink (to " + real + ") on this host: the sandbox's /run is the host's" + runMaskedNote}
	}
	return nil
}

// hostTmp keeps the private /tmp to hosts whose /tmp is a directory: the
// init stage would refuse a symlink there (it cannot tell the host's
// from one a program planted) and create a missing one on the host.
// plan.Writable names /tmp canonically already (resolveRoots).
func hostTmp(plan *nsexec.MountPlan) []string {
	if plan.TmpFrom == "" {
		return nil
	}
	fi, err := os.Lstat("/tmp")
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		if real, err := filepath.EvalSymlinks("/tmp"); err == nil {
			plan.TmpFrom = ""
			if i := slices.Index(plan.Writable, "/tmp"); i >= 0 {
				plan.Writable[i] = real // explain's look, which resolves nothing
			}
			return []string{"/tmp is a symlink to " + real + " on this host: the sandbox's /tmp is the host's" + sharedTmpNote}
		}
	}
	plan.TmpFrom = ""
	plan.Writable = slices.DeleteFunc(plan.Writable, func(w string) bool { return w == "/tmp" })
	return []string{"this host has no /tmp directory: neither has the sandbox"}
}

// dropReadOnlyMounts takes out of plan.Writable the roots whose host mount
// is read-only (a read-only root image, ProtectHome=read-only): in a user
// namespace the kernel keeps such a mount's read-only flag locked, and
// the init stage's attempt to clear it would fail the launch. They stay
// read-only, as on the host.
func dropReadOnlyMounts(plan *nsexec.MountPlan) []string {
	var kept, warnings []string
	readOnly := func(p string) bool {
		var st unix.Statfs_t
		return unix.Statfs(p, &st) == nil && st.Flags&unix.ST_RDONLY != 0
	}
	for _, w := range plan.Writable {
		// /tmp is bound from the data dir; where that cannot be made
		// writable the program gets the host's /tmp instead.
		if w == "/tmp" && plan.TmpFrom != "" {
			if !readOnly(plan.TmpFrom) {
				kept = append(kept, w)
				continue
			}
			warnings = append(warnings, "the private /tmp, "+plan.TmpFrom+", is on a read-only mount: the sandbox's /tmp is the host's"+
				sharedTmpNote+" (give --data-dir a writable place for a private one)")
			plan.TmpFrom = ""
		}
		if readOnly(w) {
			warnings = append(warnings, "writable root "+w+" is on a read-only mount: it stays read-only in the sandbox")
			continue
		}
		kept = append(kept, w)
	}
	plan.Writable = kept
	return warnings
}

// privateRun tells whether the init stage's empty /run covers the
// host's: a directory, or a link to /var/run, which it covers as well.
func privateRun() bool {
	if isDir("/run") {
		return true
	}
	real, err := filepath.EvalSymlinks("/run")
	return err == nil && real == "/var/run" && isDir("/var/run")
}
