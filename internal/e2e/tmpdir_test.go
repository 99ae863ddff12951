//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// sqliteTmp picks a temporary directory as SQLite does (SQLITE_TMPDIR,
// TMPDIR, /var/tmp, /usr/tmp, /tmp: the first that access(2) says is
// writable) and makes a file there.
const sqliteTmp = `for d in "$SQLITE_TMPDIR" "$TMPDIR" /var/tmp /usr/tmp /tmp; do
  if [ -n "$d" ] && [ -d "$d" ] && [ -w "$d" ] && [ -x "$d" ]; then break; fi
done
f=$(mktemp "$d/etilqs_XXXXXX") && rm -f "$f" && echo "tmp-ok $d"`

// TestTempDirAsSQLite: in rx, Landlock does not answer access(2), so
// /var/tmp looks writable and SQLite put its temp files there, where the
// open failed: codex's state database stopped at a migration with
// "unable to open database file" on a fresh ~/.codex. rx sets TMPDIR=/tmp
// where the program's environment has none; one the user gives is kept.
func TestTempDirAsSQLite(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.run("--mode", mode, "--", "/bin/sh", "-c", sqliteTmp)
				if r.code != 0 || !strings.Contains(r.stdout, "tmp-ok") {
					t.Errorf("%+v; want a temp file where SQLite would put it", r)
				}
				ws := w.dataDir + "/workspace"
				r = w.run("--mode", mode, "--setenv", "TMPDIR="+ws, "--", "/bin/sh", "-c", sqliteTmp)
				if r.code != 0 || !strings.Contains(r.stdout, "tmp-ok "+ws) {
					t.Errorf("with TMPDIR given: %+v; want it kept", r)
				}
			})
		}
	}
}
