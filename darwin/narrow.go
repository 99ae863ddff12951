package darwin

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// Parameter names of the caller's own narrowing paths.
const (
	paramHidden   = "HIDDEN_"
	paramReadOnly = "READ_ONLY_"
	paramPinned   = "PINNED_"
)

// hidden returns the rules that deny --hide paths, for the credential
// block: the caller asked for them by name, and Linux refuses to run
// rather than without them.
func (r *renderer) hidden(p profiles.Policy) ([]string, error) {
	return r.subpaths("--hide", paramHidden, p.Hide)
}

// readOnly denies writes below each --read-only path, after the writable
// roots' allow (the last matching rule wins), and hard links to what it
// holds (a second name the program could write it through).
func (r *renderer) readOnly(p profiles.Policy) error {
	rules, err := r.subpaths("--read-only", paramReadOnly, p.ReadOnly)
	if err != nil || len(rules) == 0 {
		return err
	}
	r.block("(deny file-write* file-link", rules)
	return nil
}

// subpaths renders one (subpath (param …)) per path, for the path as
// named (its directory resolved: an unlink or rename checks the link) and
// for what it resolves to (what an open checks), each once.
func (r *renderer) subpaths(what, prefix string, paths []string) ([]string, error) {
	var seen, rules []string
	for _, p := range paths {
		p = path.Clean(p) // Dir and Base of "/a/b/" would give "/a/b/b"
		dir, err := Canonical(path.Dir(p), r.resolve)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		full, err := Canonical(p, r.resolve)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		for _, q := range []string{path.Join(dir, path.Base(p)), full} {
			if slices.Contains(seen, q) {
				continue
			}
			seen = append(seen, q)
			r.pin(q)
			name := fmt.Sprintf("%s%d", prefix, len(rules))
			rules = append(rules, "(subpath "+r.param(name, q)+")")
		}
	}
	return rules, nil
}

// pin records each directory above p, up to and including its writable
// root, that lies in a writable root. Seatbelt judges a rename by the
// directory renamed, not by what it holds: the program could move such a
// directory aside with the protected path in it (mv ~/.omega /tmp/old)
// and put its own in its place (mv /tmp/evil ~/.omega), which Linux's
// mount points refuse. p is canonical.
func (r *renderer) pin(p string) {
	for a := path.Dir(p); a != "/"; a = path.Dir(a) {
		inRoot := slices.ContainsFunc(r.roots, func(w string) bool { return a == w || strings.HasPrefix(a, w+"/") })
		if inRoot && !slices.Contains(r.pins, a) && (r.exists == nil || r.exists(a)) {
			r.pins = append(r.pins, a)
		}
	}
}

// pinned denies the pinned directories' own rename and removal
// (file-write-unlink, which Seatbelt checks on a rename's source), not
// other writes to them (chmod, xattrs, times of a home): what they hold
// keeps its own rules.
func (r *renderer) pinned() {
	if len(r.pins) == 0 {
		return
	}
	rules := make([]string, len(r.pins))
	for i, a := range r.pins {
		rules[i] = "(literal " + r.param(fmt.Sprintf("%s%d", paramPinned, i), a) + ")"
	}
	r.block("(deny file-write-unlink", rules)
}
