package darwin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// Resolver maps an absolute path to the one the kernel sees once symlinks
// are followed. Seatbelt matches the resolved path, so an unresolved
// symlink in a writable root would silently grant nothing.
type Resolver func(string) (string, error)

// privateLinks are the top-level symlinks macOS has into /private. They are
// rewritten lexically, so even without a Resolver (on Linux, in tests, in
// explain) the profile names the paths macOS checks.
var privateLinks = []string{"/tmp", "/var", "/etc"}

// Canonical returns p as macOS checks it: cleaned, resolved with resolve
// (nil means lexical only) and with /tmp, /var and /etc under /private.
// Paths are handled with package path, not filepath: they are macOS paths
// whatever GOOS renders them.
func Canonical(p string, resolve Resolver) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if !path.IsAbs(p) {
		return "", fmt.Errorf("path %q is not absolute", p)
	}
	p = path.Clean(p)
	if resolve != nil {
		r, err := resolve(p)
		if err != nil {
			return "", fmt.Errorf("resolving %s: %w", p, err)
		}
		if !path.IsAbs(r) {
			return "", fmt.Errorf("resolving %s gave %q, not an absolute path", p, r)
		}
		p = path.Clean(r)
	}
	return underPrivate(p), nil
}

func underPrivate(p string) string {
	for _, l := range privateLinks {
		if p == l || strings.HasPrefix(p, l+"/") {
			return "/private" + p
		}
	}
	return p
}

// ResolveExisting resolves the symlinks of the longest existing prefix of
// p and appends the rest unchanged. The data dir and ~/.claude may not
// exist yet when the profile is rendered, and a root that does not exist
// cannot be a symlink out of where it claims to be.
func ResolveExisting(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	rp, err := ResolveExisting(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(p)), nil
}

// HostResolver is the Resolver for this machine: ResolveExisting on macOS,
// where the profile is enforced, and nil elsewhere, where resolving a
// Linux path would only put a path macOS does not have into the profile.
func HostResolver() Resolver {
	if runtime.GOOS == "darwin" {
		return ResolveExisting
	}
	return nil
}

// HostExists is the Options.Exists for this machine: a Lstat on macOS,
// nil elsewhere (as HostResolver).
func HostExists() func(string) bool {
	if runtime.GOOS != "darwin" {
		return nil
	}
	return func(p string) bool {
		_, err := os.Lstat(p)
		return err == nil
	}
}
