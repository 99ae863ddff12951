package sandbox

import (
	"strconv"

	"github.com/omega-run/omega-run/landlock"
)

// keptFDs counts the fds from 3 on the program gets: the preserved ones,
// then the extra files.
func (p *plan) keptFDs() int { return p.preserveFDs + len(p.extraFiles) }

// extraStreams are WrittenStreams' rules for the extra files, named by
// the fds the program gets them at, where the init stage resolves them.
func (p *plan) extraStreams() []string {
	var out []string
	for i, f := range p.extraFiles {
		if len(landlock.WrittenStreams(int(f.Fd()))) > 0 {
			out = append(out, "/proc/self/fd/"+strconv.Itoa(3+p.preserveFDs+i))
		}
	}
	return out
}
