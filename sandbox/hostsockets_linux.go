package sandbox

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// maxOtherSockets bounds the masks for other users' sockets: anyone may
// bind a hundred thousand where every launch sees them, a mount each.
const maxOtherSockets = 1024

// hostSockets lists the host's bound pathname unix sockets that the
// private /tmp and /run do not already hide: a Docker socket at a custom
// path, a rootless daemon's socket under ~, in this network namespace or
// another one (otherUnixTables). Each is covered by an empty
// file, so connect() is refused. (Landlock's RESOLVE_UNIX does this for
// every socket from ABI 9; this kernel family has less. Sockets bound after
// the sandbox starts are not covered.) The program's own sockets, in the
// writable set, and --allow-socket stay reachable.
//
// Root's, the caller's and the program's (uid) sockets are all masked;
// other users' (which they chose to expose) only where their group or
// others may write them (a program without capabilities cannot connect
// to the rest: ACLs, too, need the group-class bits), those its group
// alone reaches first — a flood of world-writable ones cannot push them
// out —, and maxOtherSockets at most but with --net none, where a
// datagram to one would be a way out: dropped counts the rest. Each costs
// one lstat and a map look-up: directories are resolved once each, and
// read once each where a listed socket has moved (movedSockets), as is
// the kept working directory (keepWorkdir).
func hostSockets(pol profiles.Policy, plan *nsexec.MountPlan, uid int, aliases *mountAliases) (out []string, dropped int, err error) {
	// Through self: a /proc of ProcSubset=pid has no /proc/net, which
	// left every host socket unmasked (TestHostSocketsProcSubset).
	data, err := os.ReadFile("/proc/self/net/unix")
	if err != nil {
		return nil, 0, err
	}
	c := &socketSet{
		skipped: socketSkipper(pol, plan), uid: uid, aliases: aliases,
		seen: map[string]bool{}, dirs: socketDirs{}, moved: map[string]bool{},
	}
	var tables [][]byte
	if pol.Net == profiles.NetNone {
		tables = otherUnixTables()
	}
	// A socket bound by a relative path may be in the kept working
	// directory (a server started there): looked for there, it is masked
	// as one bound by its full path would be (TestWorkdirRelativeSockets).
	kept := keptDirs(plan)
	for _, line := range unixTableLines(data, tables) {
		if p, ok := unixPath(line); ok {
			c.consider(filepath.Clean(p), false)
		} else if rel, ok := unixRelPath(line); ok {
			for _, k := range kept {
				c.consider(filepath.Join(k, rel), false)
			}
		}
	}
	// The kept working directory is read as one where a socket moved:
	// the table names a socket by one line, which a newline in the
	// directory's name cuts short (TestWorkdirNewlineSockets).
	for _, k := range kept {
		c.moved[k] = true
	}
	for _, p := range movedSockets(c.moved, uid) {
		c.consider(p, true)
	}
	others := append(c.group, c.world...)
	if pol.Net != profiles.NetNone && len(others) > maxOtherSockets {
		dropped, others = len(others)-maxOtherSockets, others[:maxOtherSockets]
	}
	return append(c.out, others...), dropped, nil
}

// socketSet is hostSockets' sorting of the sockets it finds: those always
// masked (out), other users' that their group (group) or anyone (world)
// may write, and the directories where a listed socket has moved.
type socketSet struct {
	skipped func(string) bool
	uid     int
	aliases *mountAliases
	seen    map[string]bool
	dirs    socketDirs
	moved   map[string]bool

	out, group, world []string
}

// consider sorts the socket at bound, with its aliases. scanned: found
// by movedSockets, which sees socket files, not whether anything is
// bound to them.
func (c *socketSet) consider(bound string, scanned bool) {
	p, st, ok := c.dirs.socket(bound)
	if !ok {
		// Resolved by dirs.socket already (or "": gone too).
		if dir, _ := filepath.Split(bound); !scanned && c.dirs[dir] != "" && !c.skipped(c.dirs[dir]) {
			c.moved[c.dirs[dir]] = true
		}
		return
	}
	if scanned && !alwaysMasked(st, c.uid) {
		return
	}
	if c.seen[p] || c.skipped(p) {
		c.seen[p] = true
		return
	}
	c.seen[p] = true
	paths := []string{p}
	for _, a := range c.aliases.of(p, st) {
		if !c.seen[a] && !c.skipped(a) {
			c.seen[a] = true
			paths = append(paths, a)
		}
	}
	switch {
	case alwaysMasked(st, c.uid):
		c.out = append(c.out, paths...)
	case st.Mode&0o022 == 0:
		// its owner's alone
	case st.Mode&0o002 == 0:
		c.group = append(c.group, paths...)
	default:
		c.world = append(c.world, paths...)
	}
}

// alwaysMasked tells the files of root, the caller and the program (uid):
// their sockets are masked whoever may write them.
func alwaysMasked(st *syscall.Stat_t, uid int) bool {
	owner := int(st.Uid)
	return owner == 0 || owner == uid || owner == os.Geteuid()
}

// ownDir tells a directory only root, the caller or the program may add
// names to, which no other user can fill with socket files: theirs, and
// not writable by others, nor by a group but the caller's own (umask 002
// with a group per user).
func ownDir(d string, uid int) bool {
	var st syscall.Stat_t
	return syscall.Stat(d, &st) == nil && alwaysMasked(&st, uid) && st.Mode&0o002 == 0 &&
		(st.Mode&0o020 == 0 || int(st.Gid) == os.Getgid())
}

// movedSockets lists the sockets in each directory where a listed socket
// is no longer at the path it was bound at: the table keeps that path, but
// a socket renamed or linked since (OpenSSH's ControlMaster binds a
// temporary name and links it to ControlPath, then removes the first) is
// still reached by its new name, which the table does not give
// (TestMovedHostSocket). Sockets unlinked for good leave a directory read
// for nothing. One moved out of its directory is not found. Of what it
// finds, hostSockets takes root's, the caller's and the program's only:
// a socket file tells nothing of whether a socket is bound to it, and
// any user may leave a hundred thousand behind (bind, close) and unlink
// one held open beside them, which masked them all, past fs.mount-max
// with --net none, and took 0.6 s a launch to read at 100,000
// (TestStaleOtherSockets). So directories other users may write (/var/tmp)
// are not read at all.
func movedSockets(dirs map[string]bool, uid int) []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if !ownDir(d, uid) {
			continue
		}
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.Type()&fs.ModeSocket != 0 {
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out
}

// socketSkipper tells the canonical socket paths the sandbox keeps out of
// reach already, or that are the program's own: in the private /run and
// /tmp, the writable roots (but a shared /tmp), the masked stores, and
// the --allow-socket ones.
func socketSkipper(pol profiles.Policy, plan *nsexec.MountPlan) func(string) bool {
	// Where the sandbox shares the host's /tmp (hostTmp, a read-only data
	// dir), the host's sockets there are masked too: X11, ssh-agent, tmux.
	sharedTmp := ""
	if plan.TmpFrom == "" && slices.Contains(pol.Writable, "/tmp") {
		sharedTmp, _ = filepath.EvalSymlinks("/tmp")
	}
	var skip []string
	if privateRun() {
		skip = append(skip, "/run")
	}
	if plan.TmpFrom != "" {
		skip = append(skip, "/tmp")
	}
	for _, w := range pol.Writable {
		if sharedTmp == "" || (w != "/tmp" && w != sharedTmp) {
			skip = append(skip, filepath.Clean(w))
		}
	}
	for _, h := range plan.HideDirs {
		skip = append(skip, filepath.Clean(h))
	}
	// The kept working directory's sockets are the host's, in reach by
	// the same path inside (keepWorkdir).
	kept := keptDirs(plan)
	return func(p string) bool {
		inKept := len(kept) > 0 && slices.ContainsFunc(kept, func(d string) bool { return under(p, d) })
		return slices.Contains(pol.AllowSocket, p) || slices.ContainsFunc(skip, func(d string) bool {
			return under(p, d) && !(inKept && (d == "/tmp" || d == "/run"))
		})
	}
}

// socketDirs caches the canonical path of each directory sockets are
// bound in.
type socketDirs map[string]string

// socket returns the canonical path of the socket bound at bound and its
// status, and false when nothing is there now: a socket unlinked since is
// listed while open. Masks go on canonical paths (the init stage follows
// no link).
func (d socketDirs) socket(bound string) (string, *syscall.Stat_t, bool) {
	dir, base := filepath.Split(bound)
	real, ok := d[dir]
	if !ok {
		real, _ = filepath.EvalSymlinks(dir)
		d[dir] = real
	}
	if real == "" {
		return "", nil, false
	}
	p := filepath.Join(real, base)
	var st syscall.Stat_t
	err := syscall.Lstat(p, &st)
	if err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFLNK { // a link where the socket was bound
		if p, err = filepath.EvalSymlinks(p); err == nil {
			err = syscall.Stat(p, &st)
		}
	}
	if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return "", nil, false
	}
	return p, &st, true
}

// under is profiles.Within for clean absolute paths, without cleaning
// them again for each of many sockets.
func under(p, root string) bool {
	return p == root || root == "/" || len(p) > len(root) && p[len(root)] == '/' && strings.HasPrefix(p, root)
}

// mountMaxFile is the kernel's limit on mounts per mount namespace.
var mountMaxFile = "/proc/sys/fs/mount-max"

// withinMountMax refuses a plan the kernel would refuse halfway through
// the init stage's mounts (ENOSPC after seconds of mounting): every host
// socket outside /tmp, /run and the writable set takes a mount, and any
// local user can bind a hundred thousand of them.
func withinMountMax(plan *nsexec.MountPlan) error {
	paths := len(plan.Writable) + len(plan.Keep) + len(plan.HideDirs) + len(plan.HideFiles) + len(plan.ReadOnly)
	if paths < 1024 {
		return nil // the usual launch: no reads of /proc for it
	}
	max, err := strconv.Atoi(readTrim(mountMaxFile))
	if err != nil {
		return nil // the kernel's error, if ever, then
	}
	host := 0
	if data, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		host = bytes.Count(data, []byte("\n")) // the new namespace's copies
	}
	// A generous allowance for /proc, /dev, the private /tmp and /run, the
	// root's remounts and the pins, beside one mount per listed path.
	const own = 256
	need := host + own + paths
	if need <= max {
		return nil
	}
	dir, n := busiestDir(plan.HideFiles)
	owner := ""
	if st, err := os.Stat(dir); err == nil {
		owner = fmt.Sprintf(" (owned by uid %d)", st.Sys().(*syscall.Stat_t).Uid)
	}
	return fmt.Errorf("the sandbox would need %d mounts, more than the kernel allows a mount namespace (fs.mount-max = %d): "+
		"it covers each host unix socket bound outside /tmp, /run and the writable set, and %d of the %d paths to mask are in %s%s; "+
		"stop the process that holds them bound, or use --mode rx, which masks nothing",
		need, max, n, len(plan.HideFiles)+len(plan.HideDirs), termsafe.String(dir), owner)
}

// busiestDir returns the directory that holds most of paths, and how many.
func busiestDir(paths []string) (string, int) {
	count := map[string]int{}
	best, most := "", 0
	for _, p := range paths {
		d := filepath.Dir(p)
		if count[d]++; count[d] > most {
			best, most = d, count[d]
		}
	}
	return best, most
}
