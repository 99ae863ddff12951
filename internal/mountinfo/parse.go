package mountinfo

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Mount is one line of /proc/PID/mountinfo, its paths unescaped.
type Mount struct {
	ID           uint64
	Dev          string // major:minor
	Root, Point  string // the directory of the filesystem mounted, and where
	Options      string // the mount's own: rw or ro, nosuid, …
	FSType       string
	SuperOptions string // the filesystem's: hidepid=, subset=, …
}

// Read parses this process's mount table.
func Read() ([]Mount, error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse parses a mount table. A line it cannot read is skipped and
// reported, for callers that must not guess.
func Parse(data []byte) ([]Mount, error) {
	var out []Mount
	var bad error
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		// id parent major:minor root point options [optional…] - fstype source super,
		// one space apart (the kernel escapes those in a field): an
		// empty source is an empty field (mount -t tmpfs "" /x, a FUSE
		// mount's fsname=, which its unprivileged user may choose),
		// which strings.Fields would drop, and the line was then not
		// understood.
		f := strings.Split(line, " ")
		sep := slices.Index(f, "-")
		if sep < 6 || sep+3 >= len(f) {
			bad = errors.New("mountinfo: a line not understood: " + strconv.Quote(line))
			continue
		}
		id, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			bad = errors.New("mountinfo: a line not understood: " + strconv.Quote(line))
			continue
		}
		out = append(out, Mount{ID: id, Dev: f[2], Root: Unescape(f[3]), Point: Unescape(f[4]),
			Options: f[5], FSType: f[sep+1], SuperOptions: f[sep+3]})
	}
	return out, bad
}
