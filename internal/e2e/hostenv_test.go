//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Hosts laid out unusually: containers, rootless user namespaces, pid
// namespaces without their /proc, read-only homes, older kernels.

// TestFallbackHostProc: where the host's /proc has parts covered (as in a
// container), the kernel refuses the sandbox a fresh /proc. The sandbox
// keeps the host's, read-only, says so, and sets up everything else: the
// config file in the data dir stays read-only (checked from outside), the
// host's disks stay out of /dev. --fail-closed refuses.
func TestFallbackHostProc(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			cfg := emptyConfig(t, w)
			run := func(args ...string) result {
				return underRootWrapper(w, "mount -t tmpfs none /proc/sys/kernel/random", args...)
			}
			r := run("--", "/bin/sh", "-c", `echo 'mode = "rwx"' >> "$0"; ls /dev; ls /proc | grep -c '^[0-9]'`, cfg)
			if r.code == 99 {
				t.Fatalf("setting up: %+v", r)
			}
			if !strings.Contains(r.stderr, "a fresh /proc could not be mounted") {
				t.Errorf("no warning about the host's /proc: %+v", r)
			}
			if got, _ := os.ReadFile(cfg); len(got) != 0 {
				t.Errorf("the config file was written: %q; stderr %q", got, r.stderr)
			}
			if strings.Contains(r.stdout, "vda") || strings.Contains(r.stdout, "loop-control") {
				t.Errorf("the host's /dev is in sight: %q", r.stdout)
			}
			r = run("--fail-closed", "--", "/bin/true")
			if r.code != 125 || !strings.Contains(r.stderr, "--fail-closed: a fresh /proc could not be mounted (mount proc on /proc") {
				t.Errorf("--fail-closed: %+v; want 125", r)
			}
		})
	}
}

// TestFallbackHostProcBroker: with the host's /proc kept (as in
// TestFallbackHostProc), the connect broker looked the calling thread up
// there by the number its listener gives, which is the sandbox's pid
// namespace's: /proc/<tid> named no process or another, and every unix
// path connect failed, the program's own socket in /tmp too (ENOENT,
// EACCES). Both init stages.
func TestFallbackHostProcBroker(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := underRootWrapper(w, "mount -t tmpfs none /proc/sys/kernel/random",
				"--", probe, "own-socket", "/tmp/own-hostproc.sock")
			if r.code != 0 || !strings.Contains(r.stderr, "a fresh /proc could not be mounted") {
				t.Errorf("exit %d, stdout %q, stderr %q; want the program's own socket connected, with the host's /proc", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestMountsNeverHalfway: a mount step that fails once the sandbox's tree
// is half built (mount_setattr refused after the binds) ends the launch:
// the program ran in a tree with a nodev /dev and a private /tmp before.
// A data dir on a read-only mount (ProtectHome=read-only) no longer fails
// a step: the sandbox gets the host's /tmp, with a warning, and works.
func TestMountsNeverHalfway(t *testing.T) {
	t.Run("mount_setattr refused", func(t *testing.T) {
		w := newWorld(t, nobody)
		noSetattr := []string{probe, "seccomp-exec", sysMountSetattr + "=1"}
		r := w.under(noSetattr, "--", "/bin/sh", "-c", "echo ran")
		if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "mount_setattr(/") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 125, the step named, nothing run", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("read-only data dir", func(t *testing.T) {
		w := newWorld(t, rootUser)
		mustMkdir(t, filepath.Join(w.dataDir, "tmp")) // as an earlier run left it
		mustMkdir(t, filepath.Join(w.home, ".claude"))
		// A host service's socket in the host's /tmp (X11, ssh-agent):
		// masked, as the sandbox shares that /tmp now.
		sock := filepath.Join("/tmp", filepath.Base(w.extra)+".sock")
		connected := listenUnix(t, sock)
		t.Cleanup(func() { os.Remove(sock) })
		// --read-only inside the shared /tmp still holds.
		ro := filepath.Join("/tmp", filepath.Base(w.extra)+"-ro")
		mustMkdir(t, ro)
		t.Cleanup(func() { os.RemoveAll(ro) })
		writeFile(t, filepath.Join(ro, "f"), "original")
		script := `mount --bind "$HOME" "$HOME" && mount -o remount,bind,ro "$HOME" && exec "$@"`
		r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
			bin, "--read-only", ro, "--", "/bin/sh", "-c", `echo x > /dev/null && head -c1 /dev/urandom >/dev/null && echo ok; echo pwned > "$2/f"; "$0" connect unix "$1"`,
			probe, sock, ro)
		if r.code == 125 || !strings.HasPrefix(r.stdout, "ok\n") || !strings.Contains(r.stderr, "the sandbox's /tmp is the host's") {
			t.Errorf("exit %d, stdout %q, stderr %q; want a working sandbox and the /tmp warning", r.code, r.stdout, r.stderr)
		}
		if connected() {
			t.Errorf("the host's socket in /tmp took a connection; stdout %q", r.stdout)
		}
		if got, _ := os.ReadFile(filepath.Join(ro, "f")); string(got) != "original" {
			t.Errorf("--read-only %s in the shared /tmp was written: %q", ro, got)
		}
		// explain tells the same: no private /tmp, the data dir not writable.
		r = w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin, "explain")
		if strings.Contains(r.stdout, "the sandbox's own") || strings.Contains(r.stdout, "writable:    "+w.dataDir+"\n") ||
			strings.Contains(r.stdout, "             "+w.dataDir+"\n") ||
			!strings.Contains(r.stdout, "the sandbox's /tmp is the host's") {
			t.Errorf("explain does not show the shared /tmp and the read-only data dir: %q", r.stdout)
		}
	})
}

// TestMappedRoot: root in a user namespace (a rootless container, unshare
// -Ur) gets the whole sandbox: its id map names only the ids that
// namespace has (the full range was refused, and the launch fell back to
// Landlock alone, leaving the config file writable). Checked from outside.
func TestMappedRoot(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			cfg := emptyConfig(t, w)
			r := w.runProg("unshare", "-Ur", bin, "--", "/bin/sh", "-c", `echo 'mode = "rwx"' > "$0"; echo pwned > "$1"; echo ran`,
				cfg, w.outside+"/sentinel")
			if !strings.Contains(r.stdout, "ran") || strings.Contains(r.stderr, "unavailable") {
				t.Errorf("want the sandbox with its namespaces: %+v", r)
			}
			if got, _ := os.ReadFile(cfg); len(got) != 0 || w.sentinel() != "original" {
				t.Errorf("written: config %q, sentinel %q", got, w.sentinel())
			}
		})
	}
}

// TestFallbackForeignProc: in a pid namespace whose /proc is another's
// (unshare -pf without --mount-proc) the id maps cannot be written; the
// warning says so and how to fix it, not which sysctl to change.
func TestFallbackForeignProc(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			asRoot := *w
			asRoot.u = rootUser // unshare -p needs root; setpriv makes the caller u again
			r := asRoot.runProg("unshare", "-pf", "setpriv", fmt.Sprintf("--reuid=%d", u.uid), fmt.Sprintf("--regid=%d", u.gid),
				"--clear-groups", bin, "--", "/bin/sh", "-c", "echo ran")
			if r.stdout != "ran\n" || !strings.Contains(r.stderr, "/proc is not this pid namespace's") ||
				!strings.Contains(r.stderr, "unshare --mount-proc") || strings.Contains(r.stderr, "sysctl") {
				t.Errorf("want the program run and the /proc cause named: %+v", r)
			}
			// What only mounts do is refused there, before anything runs.
			r = asRoot.runProg("unshare", "-pf", "setpriv", fmt.Sprintf("--reuid=%d", u.uid), fmt.Sprintf("--regid=%d", u.gid),
				"--clear-groups", bin, "--hide", w.outside, "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--hide and --read-only need the sandbox's mounts") {
				t.Errorf("--hide: want 125 and nothing run: %+v", r)
			}
		})
	}
}

// TestFallbackOldKernel simulates kernels before Landlock, mount_setattr
// (5.12) and close_range's CLOEXEC (5.11), or close_range (5.9), openat2
// and pidfd_getfd (5.6) at all: their calls fail as there (ENOSYS, EINVAL).
// Sandbox mode failed with 125 there; now it remounts and walks
// /proc/self/fd instead, and its read-only root, masks and read-only
// binds hold (checked from outside), with the Landlock warning. fd 9,
// leaked by the caller, must not reach the program.
func TestFallbackOldKernel(t *testing.T) {
	kernels := map[string]string{
		"5.10": sysMountSetattr + "=38,436=22," + sysLandlockCreateRuleset + "=38",
		"5.4":  sysMountSetattr + "=38,436=38,437=38,438=38," + sysLandlockCreateRuleset + "=38",
	}
	for name, calls := range kernels {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				cfg := emptyConfig(t, w)
				// The program's own unix socket still takes a connection
				// (the connect broker needs pidfd_getfd, from 5.6).
				own := `import socket; s = socket.socket(socket.AF_UNIX); s.bind("/tmp/own.sock"); s.listen(1); socket.socket(socket.AF_UNIX).connect("/tmp/own.sock")`
				script := `echo pwned > "$0"; echo 'mode = "rwx"' >> "$1"; echo x > /dev/null && test ! -e /proc/self/fd/9 && rm -f /tmp/own.sock && python3 -c '` + own + `' && echo ran`
				// A host mount covered by a later one (ProtectHome=tmpfs,
				// a tmpfs over a bind of /) is reached by no path: the
				// remounts leave it, and the launch goes on.
				cov := filepath.Join(w.extra, "covered")
				// The cover has a directory where the covered mount is:
				// its path reaches that one, which the mount id tells.
				host := fmt.Sprintf(`mkdir -p "$0/sub" && mount -t tmpfs none "$0/sub" && mount -t tmpfs none "$0" && mkdir "$0/sub" && exec 9</etc/hostname &&
exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
				asRoot := *w
				asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
				// Before 5.6 omega-run tells from uname that the connect
				// broker cannot work: setarch makes uname say 2.6.
				uname := []string{"setarch", "x86_64"}
				if name == "5.4" {
					uname = append(uname, "--uname-2.6")
				}
				r := asRoot.runProg("unshare", append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", host, cov},
					append(uname, probe, "seccomp-exec", calls, bin, "--", "/bin/sh", "-c", script, w.outside+"/sentinel", cfg)...)...)
				if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "only the read-only mounts stop writes") {
					t.Errorf("exit %d, stdout %q, stderr %q; want the program run, fd 9 closed, and the Landlock warning", r.code, r.stdout, r.stderr)
				}
				if got, _ := os.ReadFile(cfg); w.sentinel() != "original" || len(got) != 0 {
					t.Errorf("written: sentinel %q, config %q", w.sentinel(), got)
				}
				if name == "5.4" && !strings.Contains(r.stderr, "connect broker unavailable (pidfd_getfd") {
					t.Errorf("no word of the connect broker: %q", r.stderr)
				}
			})
		}
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
		for _, u := range users {
			t.Run(c.name+"/"+u.name, func(t *testing.T) { hostLayout(t, u, c.name, c.make, c.warn) })
		}
	}
}

// hostLayout is one case of TestHostLayouts: the layout is built as root,
// omega-run runs as u.
func hostLayout(t *testing.T, u user, name, build, warn string) {
	w := newWorld(t, u)
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
` + build + `
pivot_root . oldroot; umount -l /oldroot
python3 -c "$LISTENER" /run/svc.sock $base/extra/listener &
while [ ! -s $base/extra/listener ]; do sleep 0.05; done
set +e; "$@"; rc=$?; kill $! 2>/dev/null; exit $rc`
	script = "LISTENER='" + `import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); open(sys.argv[2], "w").write("ready")
s.accept(); open(sys.argv[2], "w").write("connected")` + "'\n" + script
	asRoot := *w
	asRoot.u = rootUser // the layout needs root; setpriv makes the caller u again
	launcher := []string{bin}
	if u.uid != 0 {
		launcher = []string{"setpriv", fmt.Sprintf("--reuid=%d", u.uid), fmt.Sprintf("--regid=%d", u.gid), "--clear-groups", bin}
	}
	layout := func(args ...string) result {
		return asRoot.runProg("unshare", slices.Concat([]string{"-m", "--propagation", "private", "/bin/sh", "-c", script, o, base, filepath.Dir(bin)}, launcher, args)...)
	}
	r := layout("--seccomp", "none", "--", "/bin/sh", "-c", `echo pwned > "$0"; "$1" connect unix /run/svc.sock; echo ran`,
		w.outside+"/sentinel", probe)
	if r.code != 0 || !strings.HasSuffix(r.stdout, "ran\n") || !strings.Contains(r.stderr, warn) {
		t.Errorf("exit %d, stdout %q, stderr %q; want the program run and %q", r.code, r.stdout, r.stderr, warn)
	}
	if w.sentinel() != "original" {
		t.Error("the write went through")
	}
	if _, err := os.Lstat(filepath.Join(o, "root", "tmp")); name == "tmp missing" && err == nil {
		t.Error("the layout's root got a /tmp")
	}
	if got, _ := os.ReadFile(flag); string(got) != "ready" {
		t.Errorf("the host's socket in /run: %q", got)
	}
	if name != "tmp symlink" {
		return
	}
	// rx names /tmp's real path in its rules as well.
	os.Remove(flag)
	r = layout("--mode", "rx", "--", "/bin/sh", "-c", `echo x > /tmp/omega-e2e-layout && rm /tmp/omega-e2e-layout && echo ran`)
	if r.code != 0 || r.stdout != "ran\n" {
		t.Errorf("rx: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestHostSocketsUnlisted: where the launcher's /proc/self/net/unix
// cannot be read (a mount over it here) the sandbox cannot mask the
// host's sockets; with --seccomp none no connect broker refuses them
// either, and with one a datagram (sendto, which it does not see) still
// gets through: each said, and --fail-closed refuses (before, the second
// was not said at all).
func TestHostSocketsUnlisted(t *testing.T) {
	w := newWorld(t, rootUser)
	script := `mount -t tmpfs none /proc/$$/net && exec "$@"`
	for _, c := range []struct{ seccomp, said string }{
		{"none", "host sockets bound before the start stay reachable"},
		{"default", "a datagram sent to a host socket bound before the start"},
	} {
		r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin, "--seccomp", c.seccomp, "--", "/bin/echo", "ran")
		if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, c.said) {
			t.Errorf("--seccomp %s: exit %d, stdout %q, stderr %q; want the program run and %q", c.seccomp, r.code, r.stdout, r.stderr, c.said)
		}
		r = w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin, "--fail-closed", "--seccomp", c.seccomp, "--", "/bin/echo", "ran")
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, c.said) {
			t.Errorf("--seccomp %s --fail-closed: exit %d, stdout %q, stderr %q; want 125 and %q", c.seccomp, r.code, r.stdout, r.stderr, c.said)
		}
	}
}

// emptyConfig gives w's data dir an empty config file, owned by w's user,
// for a test to check from outside that no launch wrote it.
func emptyConfig(t *testing.T, w *world) string {
	t.Helper()
	cfg := filepath.Join(w.dataDir, "config.toml")
	writeFile(t, cfg, "")
	chownTree(t, w.dataDir, w.u)
	return cfg
}

// TestOldKernelCoveredWorkdir: the caller's working directory is on a
// host mount that a later mount covers. The sandbox cannot show it, and
// the program starts in it, read-only; where the kernel has no
// mount_setattr the remounts reach no covered mount, so the program
// started in a writable one. It now starts in / there. Checked by the
// caller's shell, which stays in that directory.
func TestOldKernelCoveredWorkdir(t *testing.T) {
	w := newWorld(t, rootUser)
	cw := filepath.Join(w.extra, "cw")
	mustMkdir(t, cw)
	script := `mount -t tmpfs none "$0" && cd "$0" && mount -t tmpfs none "$0" && "$@"; ls`
	r := w.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, cw,
		probe, "seccomp-exec", sysMountSetattr+"=38,"+sysLandlockCreateRuleset+"=38", bin, "--", "/bin/sh", "-c", "echo x > ./pwned")
	if strings.Contains(r.stdout, "pwned") || !strings.Contains(r.stderr, "starting in /") {
		t.Errorf("stdout %q, stderr %q; want nothing written in the covered working directory", r.stdout, r.stderr)
	}
}
