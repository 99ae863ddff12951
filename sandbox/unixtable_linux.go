package sandbox

import (
	"os"
	"strings"
	"syscall"
)

// otherUnixTables reads the unix socket table of each other network
// namespace a process is in (a container's, a PrivateNetwork= service's,
// unshare -n): /proc/net/unix lists only this one's, but a socket bound
// there is found by its path from any namespace, and a datagram sent to
// it (sendto, which the connect broker does not see) got through, with
// --net none too (TestOtherNetnsSocket). A namespace is told by its
// table's inode, one read each. A path listed there is the host's where
// that process shares the host's mounts; a container's own paths mostly
// lead to nothing here (skipped), or to a socket masked needlessly.
func otherUnixTables() [][]byte {
	var st syscall.Stat_t
	if syscall.Stat("/proc/self/net/unix", &st) != nil {
		return nil
	}
	seen := map[uint64]bool{st.Ino: true}
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var tables [][]byte
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		p := "/proc/" + n + "/net/unix"
		if syscall.Stat(p, &st) != nil || seen[st.Ino] {
			continue
		}
		seen[st.Ino] = true
		if data, err := os.ReadFile(p); err == nil {
			tables = append(tables, data)
		}
	}
	return tables
}

// unixPath is the path of a pathname socket's table entry, as bound, and
// false for unnamed and abstract ones (Landlock scopes those). The kernel
// prints seven columns and then, after one space, the path to the end of
// the line: spaces in it, two in a row or a last one, are the path's.
func unixPath(line string) (string, bool) {
	name := unixName(line)
	return name, strings.HasPrefix(name, "/")
}

// unixRelPath is the path of a socket bound by a relative path
// (bind("app.sock") in its binder's working directory), as bound: the
// table does not say relative to what.
func unixRelPath(line string) (string, bool) {
	name := unixName(line)
	return name, name != "" && name[0] != '/' && name[0] != '@'
}

// unixName is what follows the seven columns of a table entry: a
// pathname socket's path, an abstract one's @name, or "".
func unixName(line string) string {
	rest := line
	for range 7 {
		rest = strings.TrimLeft(rest, " ")
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			return ""
		}
		rest = rest[i:]
	}
	return rest[1:]
}

// unixTableLines are the entries of the tables, headers left out.
func unixTableLines(own []byte, others [][]byte) []string {
	var lines []string
	for _, t := range append([][]byte{own}, others...) {
		if l := strings.Split(string(t), "\n"); len(l) > 1 {
			lines = append(lines, l[1:]...)
		}
	}
	return lines
}
