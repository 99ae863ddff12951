package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/omega-run/omega-run/internal/safefile"
	"github.com/omega-run/omega-run/profiles"
)

// The refusal of writable roots reached through a symlink a confined
// program could have planted is every OS's: on macOS the Seatbelt
// profile names where a root resolves, so a link planted in one launch
// (~/.omega/workspace/proj -> ~) would make the next launch's
// --allow-write ~/.omega/workspace/proj the whole home.

// checkPlanted is canonicalRoots' refusal for the roots that exist
// before omega-run creates what is missing (the data dir's config file,
// tmp and workspace): nothing is created through a planted link. The
// roots it resolved go to canonicalRoots, which then walks only those
// created since.
func checkPlanted(pol profiles.Policy) (map[string]string, error) {
	return resolveRoots(pol, false, nil)
}

// resolveRoots resolves and checks the roots not in known; a missing one
// is skipped, the private /tmp too unless needTmp.
func resolveRoots(pol profiles.Policy, needTmp bool, known map[string]string) (map[string]string, error) {
	paths := slices.DeleteFunc(slices.Clone(pol.Writable), func(p string) bool { return p == "/tmp" })
	if pol.Mode == profiles.ModeSandbox && runtime.GOOS == "linux" { // macOS's sandbox shares /tmp
		paths = append(paths, pol.PrivateTmp())
	}
	res, writable := resolveEach(pol, paths, known)
	canon := map[string]string{"/tmp": "/tmp"}
	named := len(pol.Writable) + 1
	// Links inside the roots as named first, so that a planted root is
	// the one named, not a root its target happens to hold.
	for _, within := range [][]string{writable[:named], writable} {
		for i, p := range paths {
			r, what := res[i], "writable root "+p
			if p == pol.PrivateTmp() {
				what = "the sandbox's /tmp (" + p + ")"
			}
			if errors.Is(r.err, fs.ErrNotExist) && (p != pol.PrivateTmp() || !needTmp) {
				continue // a missing ~/.claude or data dir is created or skipped elsewhere
			}
			if r.err != nil {
				return nil, fmt.Errorf("%s: %w", what, r.err)
			}
			for _, l := range r.links {
				if w := plantedIn(l, within); w != "" {
					fix := "remove the link (or, if you made it, name the directory it points to)"
					if p == pol.PrivateTmp() {
						fix = "remove the link; omega-run makes a new directory"
					}
					return nil, fmt.Errorf("%s leads through the symlink %s, inside the writable %s where a confined program could have made it: %s", what, l, w, fix)
				}
			}
			canon[p] = r.real
		}
	}
	// /tmp itself is the host's (root's) to make a symlink (/tmp ->
	// var/tmp): rules and mounts name where it leads.
	if fi, err := os.Lstat("/tmp"); err == nil && fi.Mode()&fs.ModeSymlink != 0 && slices.Contains(pol.Writable, "/tmp") {
		if real, err := filepath.EvalSymlinks("/tmp"); err == nil {
			canon["/tmp"] = real
		}
	}
	return canon, nil
}

// resolvedRoot is a writable root resolved: its canonical path and the
// links on the way, or why it could not be.
type resolvedRoot struct {
	real  string
	links []string
	err   error
}

// resolveEach resolves paths, those in known aside, and returns them with
// where a program may have written: every root, as named and as resolved
// now (a planted symlink among them is refused by the caller, so a wrong
// answer here only ever adds refusals).
func resolveEach(pol profiles.Policy, paths []string, known map[string]string) ([]resolvedRoot, []string) {
	res := make([]resolvedRoot, len(paths))
	writable := append(slices.Clone(pol.Writable), "/tmp")
	for i, p := range paths {
		r := &res[i]
		if real, ok := known[p]; ok {
			r.real = real // checked before anything was created
		} else {
			r.real, r.links, r.err = safefile.ResolveLinks(p, false, dataDirLinkCheck(pol, p))
			if r.err == nil {
				r.err = confirmWalked(pol, p, r.real)
			}
		}
		if r.err == nil {
			writable = append(writable, r.real)
		}
	}
	return res, writable
}

// plantedIn returns the writable root that a symlink at link lies in, or
// "": a root that is itself a link (~/.claude pointing at dotfiles) is the
// user's doing unless another root holds it.
func plantedIn(link string, writable []string) string {
	for _, w := range writable {
		if link != w && profiles.Within(link, w) {
			return w
		}
	}
	return ""
}
