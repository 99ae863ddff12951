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

// TestTempDirAsSQLiteFallback: sandbox mode where user namespaces cannot
// be made (here bubblewrap's --disable-userns; an omega-run inside
// another's sandbox too), or where the namespace may not mount (Ubuntu's
// AppArmor userns restriction, here a filter refusing mount(2)), runs the
// program with Landlock alone, as rx, and access(2) says /var/tmp is
// writable there as well; the spec was made for the mounts, and the
// fallbacks did not give it TMPDIR=/tmp (the mount one until the init
// stage learnt to add it where the mounts are refused). A TMPDIR the
// program's environment has is kept.
func TestTempDirAsSQLiteFallback(t *testing.T) {
	noMount := []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}
	for _, u := range users {
		for _, f := range []struct {
			name, said string
			wrapper    func() []string
		}{
			{"no user namespaces", "user namespaces are unavailable", func() []string { return noUserns(t, u.uid) }},
			{"mounts refused", "mount namespace unusable", func() []string { return noMount }},
		} {
			t.Run(u.name+"/"+f.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.under(f.wrapper(), "--", "/bin/sh", "-c", sqliteTmp)
				if r.code != 0 || !strings.Contains(r.stdout, "tmp-ok /tmp") || !strings.Contains(r.stderr, f.said) {
					t.Errorf("%+v; want the fallback run and a temp file where SQLite would put it", r)
				}
				ws := w.dataDir + "/workspace"
				r = w.under(f.wrapper(), "--setenv", "TMPDIR="+ws, "--", "/bin/sh", "-c", sqliteTmp)
				if r.code != 0 || !strings.Contains(r.stdout, "tmp-ok "+ws) {
					t.Errorf("with TMPDIR given: %+v; want it kept", r)
				}
			})
		}
	}
}
