//go:build linux

package nsexec

import (
	"testing"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// TestOwnOnTop: --rlimit's nproc gets the init stage's tasks on top of
// each side given, up to this process's hard limit; kept sides, other
// limits and unlimited ones stay.
func TestOwnOnTop(t *testing.T) {
	var cur unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &cur); err != nil {
		t.Fatal(err)
	}
	if cur.Max == unix.RLIM_INFINITY || cur.Max < 100 || cur.Cur < 100 {
		t.Skipf("nproc %d:%d: a finite hard limit of 100 or more wanted", cur.Cur, cur.Max)
	}
	const inf = unix.RLIM_INFINITY
	nproc := func(soft, hard uint64, keepSoft, keepHard bool) rlimits.Limit {
		return rlimits.Limit{Name: "nproc", Resource: unix.RLIMIT_NPROC, Soft: soft, Hard: hard, KeepSoft: keepSoft, KeepHard: keepHard}
	}
	nofile := rlimits.Limit{Name: "nofile", Resource: unix.RLIMIT_NOFILE, Soft: 10, Hard: 20}
	for _, c := range []struct {
		name     string
		in       rlimits.Limit
		own      uint64
		soft, hd uint64
	}{
		{"both given", nproc(10, 20, false, false), 3, 13, 23},
		{"no own", nproc(10, 20, false, false), 0, 10, 20},
		{"hard at this process's", nproc(10, cur.Max, false, false), 3, 13, cur.Max},
		{"hard up to this process's", nproc(10, cur.Max-1, false, false), 3, 13, cur.Max},
		{"soft up to the hard", nproc(cur.Max, cur.Max, false, false), 3, cur.Max, cur.Max},
		{"hard above this process's", nproc(10, inf, false, false), 3, 13, inf},
		{"soft kept", nproc(0, 20, true, false), 3, min(cur.Cur, 23), 23},
		{"hard kept", nproc(10, 0, false, true), 3, 13, cur.Max},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ownOnTop([]rlimits.Limit{nofile, c.in}, c.own)
			want := rlimits.Limit{Name: "nproc", Resource: unix.RLIMIT_NPROC, Soft: c.soft, Hard: c.hd}
			if c.own == 0 {
				want = c.in
			}
			if len(got) != 2 || got[0] != nofile || got[1] != want {
				t.Errorf("got %+v, want %+v after %+v", got, want, nofile)
			}
		})
	}
}
