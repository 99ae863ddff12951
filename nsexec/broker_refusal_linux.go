//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// reportRefusal warns about the first refusals; a program that retries
// in a loop must not flood the terminal. The program chose the path.
func (b *goBroker) reportRefusal(path string, opath int) {
	const most = 3
	n := b.reported.Add(1) - 1
	if n >= most {
		return
	}
	more := ""
	if n == most-1 {
		more = "; further refusals are not reported"
	}
	why := "a socket outside the writable set (allow it with --allow-socket)"
	if b.replacedAllowed(opath) {
		why = "the --allow-socket socket was replaced on the host since the launch started; start the launch again to reach the new one"
	}
	b.w.warn("refused connect() to " + escapeBytes(path) + ": " + why + more)
}

// replacedAllowed tells whether the refused socket lies where an allowed
// one lay at the start: the host replaced it since (a service's restart
// binds anew), and only a new launch reaches the new one.
func (b *goBroker) replacedAllowed(opath int) bool {
	at, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(opath))
	if err != nil {
		return false
	}
	for _, s := range b.sockets {
		if s.path == at {
			return true
		}
	}
	return false
}

// escapeBytes shows what a terminal would act on, and every byte outside
// ASCII, as \xNN, as cinit_broker.c does.
func escapeBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			fmt.Fprintf(&b, "\\x%02x", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
