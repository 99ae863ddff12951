package sandbox

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/mountinfo"
	"github.com/omega-run/omega-run/internal/termsafe"
)

// mountEntry is one line of /proc/self/mountinfo: the filesystem's
// device, the directory of it that is mounted (root) and where.
type mountEntry struct {
	dev         string // major:minor
	root, point string
}

// mountAliases finds the other paths of a host socket: a directory bind
// mounted elsewhere on the host (mount --bind /srv/app /mnt/app, a
// unit's BindPaths=) shows the same socket under another name, which its
// mask did not cover, and a datagram reached it there (a connect() too
// with the Go init stage: TestHostSocketBindAlias). The sandbox's mounts
// copy the host's, so each mount of the same filesystem whose root holds
// the socket is one more path to mask.
type mountAliases struct {
	byDev   map[string][]mountEntry
	byID    map[uint64]mountEntry
	byPoint map[string]mountEntry // the last mount at each point: the one on top
}

// readMounts reads the mount table (a test's way to have it fail).
var readMounts = mountinfo.Read

// newMountAliases reads the mount table, and returns with what it could
// read a warning (for report) when the table, or a line of it, could not
// be: the other paths through what is missing stay unmasked.
func newMountAliases() (*mountAliases, string) {
	a := &mountAliases{byDev: map[string][]mountEntry{}, byID: map[uint64]mountEntry{}, byPoint: map[string]mountEntry{}}
	mounts, err := readMounts()
	for _, mi := range mounts {
		m := mountEntry{dev: mi.Dev, root: mi.Root, point: mi.Point}
		a.byDev[m.dev] = append(a.byDev[m.dev], m)
		a.byPoint[m.point] = m
		a.byID[mi.ID] = m
	}
	return a, unreadMountsWarning(mounts, err)
}

// unreadMountsWarning says what a mount table read that failed (err),
// or read all but a line (mounts too), leaves unmasked.
func unreadMountsWarning(mounts []mountinfo.Mount, err error) string {
	switch {
	case err == nil:
		return ""
	case len(mounts) == 0:
		return "cannot read the mount table (" + termsafe.String(err.Error()) + "): a masked credential store, --hide path or host socket that a bind mount on the host also shows at another path stays unmasked there"
	}
	return termsafe.String(err.Error()) + ": a masked credential store, --hide path or host socket on that mount, or that it also shows at another path, stays unmasked at its other paths"
}

// of returns the other paths that lead to the file at p (canonical, with
// status st; a socket, or a credential store that masks) hides: the
// same inode through another mount of its filesystem.
func (a *mountAliases) of(p string, st *syscall.Stat_t) []string {
	dev := strconv.Itoa(int(unix.Major(st.Dev))) + ":" + strconv.Itoa(int(unix.Minor(st.Dev)))
	same := a.byDev[dev]
	if len(same) < 2 {
		return nil
	}
	on, found := a.mountOf(p)
	if !found || on.dev != dev {
		return nil
	}
	inFS := filepath.Join(on.root, strings.TrimPrefix(p, on.point))
	var out []string
	for _, m := range same {
		if !under(inFS, m.root) {
			continue
		}
		alias := filepath.Join(m.point, strings.TrimPrefix(inFS, m.root))
		var ast syscall.Stat_t
		if alias != p && syscall.Lstat(alias, &ast) == nil && ast.Dev == st.Dev && ast.Ino == st.Ino {
			out = append(out, alias)
		}
	}
	return out
}

// mountOf returns the mount p is on: by its id (statx, Linux 5.8), or else
// the last one at the nearest mount point above p. Not by path alone where
// the kernel tells: a mount at /a/home that a later one at /a covers is
// still listed, and it was taken for the one a home at /a/home is on, so
// the home's other paths went unmasked (TestStoreBindAliasShadowed).
func (a *mountAliases) mountOf(p string) (mountEntry, bool) {
	var stx unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &stx) == nil && stx.Mask&unix.STATX_MNT_ID != 0 {
		m, ok := a.byID[stx.Mnt_id]
		return m, ok
	}
	for d := p; ; d = filepath.Dir(d) {
		if m, ok := a.byPoint[d]; ok || d == "/" {
			return m, ok
		}
	}
}
