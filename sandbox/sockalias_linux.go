package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/mountinfo"
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
	byPoint map[string]mountEntry // the last mount at each point: the one on top
}

func newMountAliases() *mountAliases {
	a := &mountAliases{byDev: map[string][]mountEntry{}, byPoint: map[string]mountEntry{}}
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return a
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		m := mountEntry{dev: f[2], root: mountinfo.Unescape(f[3]), point: mountinfo.Unescape(f[4])}
		a.byDev[m.dev] = append(a.byDev[m.dev], m)
		a.byPoint[m.point] = m
	}
	return a
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
	// The mount p is on: the top one at the nearest mount point above it.
	on, found := mountEntry{}, false
	for d := p; !found; d = filepath.Dir(d) {
		on, found = a.byPoint[d]
		if d == "/" {
			break
		}
	}
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
