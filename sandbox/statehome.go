package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/omega-run/omega-run/internal/safefile"
	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/profiles"
)

// homeRoots is what a program may change between launches, as the state
// sync checks home files against it: the policy's writable roots, the
// device directories every confined program writes, and the working
// copies' directories; each as named and resolved.
func homeRoots(writable []string, prog *profiles.Program, home string) []string {
	var out []string
	add := func(p string) {
		for _, q := range []string{filepath.Clean(p), resolvedOr(p)} {
			if filepath.IsAbs(q) && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	for _, w := range append(slices.Clone(writable), landlock.DeviceDirs...) {
		add(w)
	}
	for _, s := range prog.Sync {
		add(filepath.Dir(filepath.Join(home, s.Work)))
	}
	return out
}

func resolvedOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// fileAttrs are a home file's mode and owner, which a rewrite keeps.
type fileAttrs struct {
	mode     fs.FileMode
	uid, gid int
}

// newAttrs are those of a home file the sync creates.
var newAttrs = fileAttrs{0o600, -1, -1}

// linkedHomeError refuses a home state file that the program could
// re-point: a symlink on its way lies in a writable root, or it is a
// symlink to a file in one. Following it would read what the program
// chose into the working copy (a hidden credential store), or write the
// program's state where it chose (any file the caller may write).
type linkedHomeError struct{ home, root string }

func (e *linkedHomeError) Error() string {
	return fmt.Sprintf("%s is not synced: it is a symlink through the writable %s, which the program could point at any file of yours; make it a file, or a link to one outside the writable set",
		termsafe.String(e.home), termsafe.String(e.root))
}

// resolveHome resolves a home state file as the kernel would
// (resolveLinks) and refuses it (linkedHomeError) when a symlink on the
// way lies in a root of roots (checked before it is followed), or when
// path itself is a symlink that ends in one. It returns the file's path
// without symlinks, which the sync then opens without following any
// (openHome): what was checked is what is read and written; and whether
// it followed any symlink. A missing last component is no error.
func resolveHome(path, shown string, roots []string) (string, bool, error) {
	fi, err := os.Lstat(path)
	isLink := err == nil && fi.Mode()&fs.ModeSymlink != 0
	resolved, _, err := safefile.ResolveLinks(filepath.Clean(path), true, func(link string) error {
		if r := rootOf(link, roots); r != "" {
			return &linkedHomeError{shown, r}
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	if r := rootOf(resolved, roots); isLink && r != "" {
		return "", false, &linkedHomeError{shown, r}
	}
	// Linked: the home file itself is a link (a dotfile manager's); links
	// in $HOME's own path (/home -> /var/home, automounts) do not count.
	return resolved, isLink, nil
}

// rootOf is the innermost root of roots that p lies in, or "".
func rootOf(p string, roots []string) string {
	in := ""
	for _, r := range roots {
		if profiles.Within(p, r) && len(r) > len(in) {
			in = r
		}
	}
	return in
}

// attrsOf is the mode and owner of the file at path (followed if a
// link), or newAttrs.
func attrsOf(path string) fileAttrs {
	a := newAttrs
	if st, err := os.Stat(path); err == nil {
		a.mode = st.Mode().Perm()
		a.uid, a.gid, _ = owner(st)
	}
	return a
}

// atomicWrite replaces path with data through a temporary file and a
// rename, with attrs: those of the home file as read (attrsOf would
// follow a link the program swapped in since).
func atomicWrite(path string, data []byte, attrs fileAttrs) error {
	mode, uid, gid := attrs.mode, attrs.uid, attrs.gid
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".omega-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	// Mode and owner through the open file, not its name: the directory
	// may be a confined program's (~/.claude), which could put a symlink
	// in the temporary file's place for a chmod by name to follow.
	err = tmp.Chmod(mode)
	if err == nil && os.Geteuid() == 0 && uid >= 0 {
		_ = tmp.Chown(uid, gid)
	}
	if err == nil {
		_, err = tmp.Write(data)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
