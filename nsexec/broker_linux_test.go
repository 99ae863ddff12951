//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// TestUnixPath: which addresses the Go init stage's broker opens as a
// path, as cinit_broker.c's omega_broker_connect tells them.
func TestUnixPath(t *testing.T) {
	addr := func(family uint16, path string, extra int) *call {
		c := &call{}
		binary.NativeEndian.PutUint16(c.ss[:], family)
		n := copy(c.ss[2:], path)
		c.len = uint32(2 + n + extra)
		return c
	}
	tests := []struct {
		name string
		c    *call
		path string
		err  unix.Errno
	}{
		{"absolute", addr(unix.AF_UNIX, "/run/x.sock", 1), "/run/x.sock", 0},
		{"relative, no NUL", addr(unix.AF_UNIX, "x.sock", 0), "x.sock", 0},
		{"cut at the first NUL", addr(unix.AF_UNIX, "a\x00b", 0), "a", 0},
		{"abstract", addr(unix.AF_UNIX, "\x00abs", 0), "", 0},
		{"unnamed", addr(unix.AF_UNIX, "", 0), "", 0},
		{"longer than a sockaddr_un", addr(unix.AF_UNIX, "/x", 110-4+1), "", unix.EINVAL},
		{"inet", addr(unix.AF_INET, "/not/a/path", 0), "", 0},
	}
	for _, tt := range tests {
		path, err := tt.c.unixPath()
		if path != tt.path || err != tt.err {
			t.Errorf("%s: %q, %v; want %q, %v", tt.name, path, err, tt.path, tt.err)
		}
	}
}

// TestEscapeBytes: a refused path is shown as cinit_broker.c shows it.
func TestEscapeBytes(t *testing.T) {
	for in, want := range map[string]string{
		"/srv/a.sock":   "/srv/a.sock",
		"/x\x1b[2J":     `/x\x1b[2J`,
		"/caf\xc3\xa9":  `/caf\xc3\xa9`,
		"/del\x7f\nend": `/del\x7f\x0aend`,
	} {
		if got := escapeBytes(in); got != want {
			t.Errorf("escapeBytes(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWorkSlots: the broker's calls at work at once, by PID 1's spare
// threads: a third of them, at least one.
func TestWorkSlots(t *testing.T) {
	for _, c := range []struct{ spare, want int }{{0, 1}, {2, 1}, {spareThreads, 2}, {9, 3}} {
		if got := workSlots(c.spare); got != c.want {
			t.Errorf("workSlots(%d) = %d, want %d", c.spare, got, c.want)
		}
	}
}
