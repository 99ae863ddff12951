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

// TestHostLayouts: a host whose /tmp is a symlink (/tmp -> hosttmp) or
// missing, or whose /run is a symlink, as some images are. The sandbox
// refused to start on the /tmp symlink, blaming an earlier run; a
// root-run one made a /tmp on the host's root; a /run symlink left the
// host's sockets there reachable with --seccomp none. Now the program
// gets the host's /tmp, or none, and /run's sockets are masked, each with
// a warning; rx, which refused the /tmp symlink too, names its target.
// Checked from outside: the sentinel, the layout's root directory, the
// listener. Each layout is a root directory of binds, made the root with
// pivot_root.
func TestHostLayouts(t *testing.T) {
	for _, c := range []struct{ name, make, warn string }{
		{"tmp symlink", "mkdir -p run && mount -t tmpfs none run && mkdir -p -m 1777 hosttmp && ln -sfn hosttmp tmp",
			"/tmp is a symlink to /hosttmp on this host"},
		{"tmp missing", "mkdir -p run && mount -t tmpfs none run", "this host has no /tmp directory"},
		{"run symlink", "mkdir -p -m 1777 tmp && mkdir -p hostrun && mount --bind $base/extra/hostrun hostrun && ln -sfn hostrun run",
			"/run is a symlink (to /hostrun) on this host"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, rootUser)
			o := filepath.Join(w.extra, "layout")
			mustMkdir(t, filepath.Join(o, "root"))
			mustMkdir(t, filepath.Join(w.extra, "hostrun"))
			base := filepath.Dir(w.home)
			flag := filepath.Join(w.extra, "listener")
			script := `set -e; o=$0; base=$1; bindir=$2; shift 2; PATH=$PATH:/usr/sbin:/sbin
r=$o/root; mount --bind $r $r; cd $r
mkdir -p usr etc var proc dev sys oldroot
for l in bin lib lib64 sbin; do if [ -L /$l ]; then ln -sfn "$(readlink /$l)" $l; fi; done
mount --rbind /usr usr; mount --rbind /etc etc; mount --rbind /var var
mount --rbind /proc proc; mount --rbind /dev dev; mount --rbind /sys sys
case $bindir in /var/*|/usr/*) ;; *) mkdir -p .$bindir; mount --bind $bindir .$bindir;; esac
` + c.make + `
pivot_root . oldroot; umount -l /oldroot
python3 -c "$LISTENER" /run/svc.sock $base/extra/listener &
while [ ! -s $base/extra/listener ]; do sleep 0.05; done
set +e; "$@"; rc=$?; kill $! 2>/dev/null; exit $rc`
			script = "LISTENER='" + `import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); open(sys.argv[2], "w").write("ready")
s.accept(); open(sys.argv[2], "w").write("connected")` + "'\n" + script
			layout := func(args ...string) result {
				return w.runProg("unshare", append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", script, o, base, filepath.Dir(bin), bin}, args...)...)
			}
			r := layout("--seccomp", "none", "--", "/bin/sh", "-c", `echo pwned > "$0"; "$1" connect unix /run/svc.sock; echo ran`,
				w.outside+"/sentinel", probe)
			if r.code != 0 || !strings.HasSuffix(r.stdout, "ran\n") || !strings.Contains(r.stderr, c.warn) {
				t.Errorf("exit %d, stdout %q, stderr %q; want the program run and %q", r.code, r.stdout, r.stderr, c.warn)
			}
			if w.sentinel() != "original" {
				t.Error("the write went through")
			}
			if _, err := os.Lstat(filepath.Join(o, "root", "tmp")); c.name == "tmp missing" && err == nil {
				t.Error("the layout's root got a /tmp")
			}
			if got, _ := os.ReadFile(flag); string(got) != "ready" {
				t.Errorf("the host's socket in /run: %q", got)
			}
			if c.name != "tmp symlink" {
				return
			}
			// rx names /tmp's real path in its rules as well.
			os.Remove(flag)
			r = layout("--mode", "rx", "--", "/bin/sh", "-c", `echo x > /tmp/omega-e2e-layout && rm /tmp/omega-e2e-layout && echo ran`)
			if r.code != 0 || r.stdout != "ran\n" {
				t.Errorf("rx: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestHostSocketsUnlisted: where /proc/net/unix cannot be read (systemd's
// ProcSubset=pid) the sandbox cannot mask the host's sockets; with
// --seccomp none no connect broker refuses them either. Said.
func TestHostSocketsUnlisted(t *testing.T) {
	w := newWorld(t, rootUser)
	script := `mount -t proc -o subset=pid proc /proc && exec "$@"`
	r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin, "--seccomp", "none", "--", "/bin/echo", "ran")
	if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "host sockets bound before the start stay reachable") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the program run and the gap said", r.code, r.stdout, r.stderr)
	}
}
