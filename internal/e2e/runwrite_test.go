//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowWriteBelowRun: a unit's RuntimeDirectory= (/run/svc) granted
// with --allow-write is there in sandbox mode, with the host's files, and
// writable, although the sandbox's /run is otherwise an empty tmpfs of
// its own: the write is checked from outside, and a sibling directory of
// the host's /run stays out of sight.
func TestAllowWriteBelowRun(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			dir, sibling := runDir(t, "rundir"), runDir(t, "sibling")
			writeFile(t, filepath.Join(dir, "host"), "from the host")
			chownTree(t, dir, w.u)
			r := w.run("--mode", mode, "--allow-write", dir, "--", "/bin/sh", "-c",
				`cat "$0/host" && echo written > "$0/pid" && echo ok; test -e "$1" && echo sibling visible`, dir, sibling)
			if got, _ := os.ReadFile(filepath.Join(dir, "pid")); string(got) != "written\n" || !strings.Contains(r.stdout, "from the host") {
				t.Errorf("file written from inside: %q; stdout %q, stderr %q", got, r.stdout, r.stderr)
			}
			if visible := strings.Contains(r.stdout, "sibling visible"); visible != (mode == "rx") {
				t.Errorf("the host's %s visible = %v in %s", sibling, visible, mode)
			}
			if strings.Contains(r.stderr, "--allow-write") {
				t.Errorf("unexpected warning: %s", r.stderr)
			}
			// A data dir inside the runtime dir: kept inside it, not
			// covered by it.
			data := filepath.Join(dir, "omega")
			r = w.run("--mode", mode, "--data-dir", data, "--allow-write", dir, "--", "/bin/sh", "-c", `echo in > "$0/workspace/f" && echo in > "$1/g"`, data, dir)
			if got, _ := os.ReadFile(filepath.Join(data, "workspace", "f")); r.code != 0 || string(got) != "in\n" {
				t.Errorf("data dir in the runtime dir: exit %d, file %q, stderr %q", r.code, got, r.stderr)
			}
		})
	}
}

// TestReadOnlyHome: a service whose home is read-only (ProtectHome=
// read-only, a read-only root image) and whose data dir is elsewhere: a
// ~/.claude that exists stays read-only without costing the sandbox its
// mount namespace, and one that cannot be created is left out with a
// warning instead of failing the launch. The write into the data dir is
// checked from outside.
func TestReadOnlyHome(t *testing.T) {
	for _, claude := range []bool{true, false} {
		t.Run(map[bool]string{true: "claude dir exists", false: "no claude dir"}[claude], func(t *testing.T) {
			w := newWorld(t, rootUser)
			if claude {
				mustMkdir(t, filepath.Join(w.home, ".claude"))
			}
			data := filepath.Join(w.extra, "omega")
			script := `mount --bind -o ro "$HOME" "$HOME" && exec "$@"`
			r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
				bin, "--data-dir", data, "--", "/bin/sh", "-c", `echo ok > "$0/workspace/out"`, data)
			if r.code != 0 || strings.Contains(r.stderr, "mount namespace unusable") {
				t.Errorf("exit %d, stderr %q; want a sandbox with its mounts", r.code, r.stderr)
			}
			want := map[bool]string{true: "is on a read-only mount: it stays read-only", false: "it is left out of the writable set"}[claude]
			if !strings.Contains(r.stderr, want) {
				t.Errorf("stderr %q, want %q", r.stderr, want)
			}
			if got, _ := os.ReadFile(filepath.Join(data, "workspace", "out")); string(got) != "ok\n" {
				t.Errorf("the data dir was not written: %q", got)
			}
		})
	}
}

// TestTruncateBelowReadOnlyDirectory: a directory handed over as stdin on
// a read-only mount can still have a writable host mount below it; a file
// there must not be truncated through /proc/self/fd/0 either.
func TestTruncateBelowReadOnlyDirectory(t *testing.T) {
	w := newWorld(t, rootUser)
	script := `mkdir -p "$0/w" && mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && mount -t tmpfs tmpfs "$0/w" &&
printf original > "$0/w/f" || exit 99
"$@" < "$0"; echo "after=$(cat "$0/w/f")."`
	r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, w.outside,
		bin, "--", probe, "truncate", "/proc/self/fd/0/w/f")
	if r.code == 99 || !strings.Contains(r.stdout, "after=") {
		t.Fatalf("setting up: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "after=original.") {
		t.Errorf("truncated below a read-only directory: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}
