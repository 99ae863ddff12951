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

// dataVolume is where macOS mounts the volume holding users' data. Its
// firmlinks, as /usr/share/firmlinks lists them, are its directories that
// appear in the system volume's tree too (/Users is
// /System/Volumes/Data/Users). macOS names a file in them by that
// firmlinked path, also one opened through the Data volume's, and
// Seatbelt matches that name: a rule spelled /System/Volumes/Data/Users/…
// matches nothing, so a --hide or --read-only given that way would
// protect nothing (seen on macOS 14 by the sandbox-boostrap project's
// path-spelling suite; not on a Mac here).
const dataVolume = "/System/Volumes/Data"

var firmlinks = []string{
	"/AppleInternal", "/Applications", "/Library", "/Users", "/Volumes",
	"/cores", "/opt", "/private", "/usr/local", "/usr/libexec/cups",
	"/usr/share/snmp", "/System/Library/Caches", "/System/Library/Assets",
	"/System/Library/AssetsV2", "/System/Library/PreinstalledAssets",
	"/System/Library/PreinstalledAssetsV2", "/System/Library/Speech",
	"/System/Library/CoreServices/CoreTypes.bundle/Contents/Library",
}

// Canonical returns p as macOS checks it: cleaned, resolved with resolve
// (nil means lexical only), by its firmlinked name rather than the Data
// volume's, and with /tmp, /var and /etc under /private.
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
	return underPrivate(firmlinked(p)), nil
}

// firmlinked returns p by its firmlinked name when it is a Data volume
// path below a firmlink (see dataVolume), else p.
func firmlinked(p string) string {
	rest, ok := strings.CutPrefix(p, dataVolume)
	if !ok || !strings.HasPrefix(rest, "/") {
		return p
	}
	for _, f := range firmlinks {
		if rest == f || strings.HasPrefix(rest, f+"/") {
			return rest
		}
	}
	return p
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
