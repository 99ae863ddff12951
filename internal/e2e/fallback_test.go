//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Syscall numbers on x86_64 for the simulations below.
const (
	sysMount                 = "165"
	sysMountSetattr          = "442"
	sysLandlockCreateRuleset = "444"
)

// TestFallbackNoLandlock simulates a kernel without Landlock (its
// syscalls return ENOSYS): a warning names the gap, sandbox mode's
// read-only mounts still stop writes, and --fail-closed refuses to run.
func TestFallbackNoLandlock(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			noLandlock := []string{probe, "seccomp-exec", sysLandlockCreateRuleset + "=38"}
			r := w.under(noLandlock, "--mode", mode, "--", "/bin/sh", "-c", `echo pwned > "$0"`, w.outside+"/sentinel")
			// Each mode's warning says what still stops writes, if anything.
			said := map[string]string{"sandbox": "only the read-only mounts stop writes", "rx": "are NOT prevented"}[mode]
			if !strings.Contains(r.stderr, "Landlock is unavailable") || !strings.Contains(r.stderr, said) {
				t.Errorf("no warning about Landlock saying %q; stderr %q", said, r.stderr)
			}
			if protected := w.sentinel() == "original"; protected != (mode == "sandbox") {
				t.Errorf("sentinel protected = %v in %s without Landlock", protected, mode)
			}
			r = w.under(noLandlock, "--fail-closed", "--mode", mode, "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "fail-closed") {
				t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125 before anything runs", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestFallbackNoLandlockHostSysctl: without Landlock, a sandbox run as
// root (uid 0 in its user namespace is the host's root) must still not
// write the host's sysctls: its /proc is mounted read-only. The test flips
// kernel.core_uses_pid from inside and reads it from outside.
func TestFallbackNoLandlockHostSysctl(t *testing.T) {
	const sysctl = "/proc/sys/kernel/core_uses_pid"
	w := newWorld(t, rootUser)
	before := readTrimmed(t, sysctl)
	t.Cleanup(func() { os.WriteFile(sysctl, []byte(before), 0) })
	noLandlock := []string{probe, "seccomp-exec", sysLandlockCreateRuleset + "=38"}
	r := w.under(noLandlock, "--", "/bin/sh", "-c", `v=$(cat "$0"); echo $((1 - v)) > "$0" && echo flipped`, sysctl)
	if !strings.Contains(r.stderr, "Landlock is unavailable") {
		t.Fatalf("Landlock was not simulated away; stderr %q", r.stderr)
	}
	if after := readTrimmed(t, sysctl); after != before || strings.Contains(r.stdout, "flipped") {
		t.Errorf("the host's %s went from %s to %s (stdout %q, stderr %q)", sysctl, before, after, r.stdout, r.stderr)
	}
}

func readTrimmed(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestFallbackLandlockABI1 simulates a kernel of Landlock ABI 1 (5.13 to
// 5.18; Ubuntu 22.04's): it has no REFER right, and the ruleset must still
// confine writes. Cross-directory renames then fail with EXDEV, which mv
// answers by copying.
func TestFallbackLandlockABI1(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			abi1 := []string{probe, "landlock-abi", "1"}
			r := w.under(abi1, "--mode", mode, "--", "/bin/sh", "-c", `echo pwned > "$0"; mkdir "$1/a" "$1/b" && echo moved > "$1/a/f" && mv "$1/a/f" "$1/b/f" && cat "$1/b/f"`,
				w.outside+"/sentinel", filepath.Join(w.dataDir, "workspace"))
			if !strings.Contains(r.stderr, "Landlock ABI 1 lacks") {
				t.Fatalf("ABI 1 was not simulated; stderr %q", r.stderr)
			}
			if got := w.sentinel(); got != "original" {
				t.Errorf("the write outside the writable set went through at ABI 1: sentinel %q", got)
			}
			if !strings.Contains(r.stdout, "moved") {
				t.Errorf("mv between directories of the writable set failed: stdout %q, stderr %q", r.stdout, r.stderr)
			}
		})
	}
}

// TestFallbackMountRefused simulates Ubuntu's AppArmor userns restriction:
// the namespaces are created but mounting fails with EPERM.
func TestFallbackMountRefused(t *testing.T) {
	w := newWorld(t, nobody)
	noMount := []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}
	r := w.under(noMount, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
	if !strings.Contains(r.stderr, "mount namespace unusable") || !strings.Contains(r.stdout, "ran") {
		t.Errorf("want a warning and a confined run; stdout %q stderr %q", r.stdout, r.stderr)
	}
	if w.sentinel() != "original" {
		t.Error("the write went through: Landlock must still confine")
	}
	// The files the sandbox keeps read-only are writable now: said.
	if cfg := filepath.Join(w.dataDir, "config.toml"); !strings.Contains(r.stderr, "writable, though kept read-only in the sandbox: "+cfg) {
		t.Errorf("the warning does not name %s: %q", cfg, r.stderr)
	}
	r = w.under(noMount, "--fail-closed", "--", "/bin/sh", "-c", "echo ran")
	if r.code != 125 || strings.Contains(r.stdout, "ran") {
		t.Errorf("--fail-closed: exit %d stdout %q; want 125 and nothing run", r.code, r.stdout)
	}
}

// TestFallbackNoUserNamespaces runs omega-run where creating a user
// namespace fails, inside bubblewrap's --disable-userns. Root's program
// then has only Landlock, as in rx, and gets rx's warning about metadata.
func TestFallbackNoUserNamespaces(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatal("bubblewrap is needed to simulate disabled user namespaces: apt-get install bubblewrap")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			wrap := []string{bwrap, "--unshare-user", "--uid", fmt.Sprint(u.uid), "--disable-userns", "--dev-bind", "/", "/", "--"}
			r := w.under(wrap, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
			if !strings.Contains(r.stderr, "user namespaces are unavailable") || !strings.Contains(r.stdout, "ran") {
				t.Errorf("want one warning and a run; stdout %q stderr %q", r.stdout, r.stderr)
			}
			if cfg := filepath.Join(w.dataDir, "config.toml"); !strings.Contains(r.stderr, "writable, though kept read-only in the sandbox: "+cfg) {
				t.Errorf("the warning does not name %s: %q", cfg, r.stderr)
			}
			warnings, root := 2, strings.Contains(r.stderr, "chmod 666 /etc/shadow")
			if u.uid == 0 {
				warnings++
			}
			if n := strings.Count(r.stderr, "omega-run:"); n != warnings || root != (u.uid == 0) {
				t.Errorf("want %d warning lines (root's metadata warning: %v), got %d: %q", warnings, u.uid == 0, n, r.stderr)
			}
			if w.sentinel() != "original" {
				t.Error("the write went through: Landlock must still confine")
			}
			r = w.under(wrap, "--fail-closed", "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "--fail-closed: user namespaces are unavailable") {
				t.Errorf("--fail-closed: exit %d stdout %q stderr %q; want 125, nothing run, and why", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestFallbackNoProcesses: where no process may be created (a filter
// around the caller refuses fork, threads still work), a launch that needs
// a child ends with 125 and one error line. The user-namespace fallback
// applies once: before, a supervised run (a cgroup limit here) retried
// without namespaces, failed the same way and retried forever. Without a
// cgroup, the fallback runs the program in place.
func TestFallbackNoProcesses(t *testing.T) {
	w := newWorld(t, rootUser)
	w.timeout = 10 * time.Second
	noFork := []string{probe, "no-fork"}
	for _, mode := range confinedModes {
		r := w.under(noFork, "--mode", mode, "--pids", "50", "--", "/bin/sh", "-c", "echo ran")
		last := strings.TrimSpace(r.stderr)
		last = last[strings.LastIndexByte(last, '\n')+1:]
		// At most the fallback's two warnings, root's metadata warning
		// (only Landlock confines the program then) and the one error: a
		// retry loop would print many more.
		if r.code != 125 || strings.Contains(r.stdout, "ran") || strings.Count(r.stderr, "\n") > 4 ||
			!strings.Contains(last, "operation not permitted") {
			t.Errorf("%s --pids: exit %d, stdout %q, stderr %.300q; want 125 and one error", mode, r.code, r.stdout, r.stderr)
		}
	}
	r := w.under(noFork, "--", "/bin/echo", "ran")
	if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") {
		t.Errorf("sandbox without a cgroup: exit %d, stdout %q, stderr %q; want a warning and the program run", r.code, r.stdout, r.stderr)
	}
}

// TestNested: omega-run inside an omega-run sandbox (an agent that starts
// its own tools with it) runs the program with Landlock and seccomp,
// says that the outer sandbox is why it has no namespaces instead of
// pointing at sysctls, and the program stays confined.
func TestNested(t *testing.T) {
	for _, outer := range confinedModes {
		t.Run(outer, func(t *testing.T) {
			w := newWorld(t, nobody)
			r := w.run("--mode", outer, "--", bin, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
			if !strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "appears to run confined by another (OMEGA_SANDBOX="+outer) ||
				strings.Contains(r.stderr, "sysctl") {
				t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			if w.sentinel() != "original" {
				t.Error("the nested program wrote outside the writable set")
			}
			// explain tells the same, and a nested --fail-closed says why.
			r = w.run("--mode", outer, "--", bin, "explain", "--", "/bin/true")
			if !strings.Contains(r.stdout, "user namespaces are unavailable") || !strings.Contains(r.stdout, "namespaces:  none") {
				t.Errorf("nested explain: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			r = w.run("--mode", outer, "--", bin, "--fail-closed", "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "--fail-closed: user namespaces are unavailable") {
				t.Errorf("nested --fail-closed: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestFallbackHostProc: where the host's /proc has parts covered (as in a
// container), the kernel refuses the sandbox a fresh /proc. The sandbox
// keeps the host's, read-only, says so, and sets up everything else: the
// config file in the data dir stays read-only (checked from outside), the
// host's disks stay out of /dev. --fail-closed refuses.
func TestFallbackHostProc(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			cfg := filepath.Join(w.dataDir, "config.toml")
			writeFile(t, cfg, "")
			chownTree(t, w.dataDir, u)
			script := fmt.Sprintf(`mount -t tmpfs none /proc/sys/kernel/random || exit 99
exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
			asRoot := *w
			asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
			run := func(args ...string) result {
				return asRoot.runProg("unshare", append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin}, args...)...)
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
			if r.code != 125 || !strings.Contains(r.stderr, "mount proc on /proc") {
				t.Errorf("--fail-closed: %+v; want 125", r)
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
			cfg := filepath.Join(w.dataDir, "config.toml")
			writeFile(t, cfg, "")
			chownTree(t, w.dataDir, u)
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
				cfg := filepath.Join(w.dataDir, "config.toml")
				writeFile(t, cfg, "")
				chownTree(t, w.dataDir, u)
				// The program's own unix socket still takes a connection
				// (the connect broker needs pidfd_getfd, from 5.6).
				own := `import socket; s = socket.socket(socket.AF_UNIX); s.bind("/tmp/own.sock"); s.listen(1); socket.socket(socket.AF_UNIX).connect("/tmp/own.sock")`
				script := `echo pwned > "$0"; echo 'mode = "rwx"' >> "$1"; echo x > /dev/null && test ! -e /proc/self/fd/9 && rm -f /tmp/own.sock && python3 -c '` + own + `' && echo ran`
				r := w.runProg("/bin/sh", "-c", `exec 9</etc/hostname; exec "$@"`, "sh", probe, "seccomp-exec", calls,
					bin, "--", "/bin/sh", "-c", script, w.outside+"/sentinel", cfg)
				if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "only the read-only mounts stop writes") {
					t.Errorf("exit %d, stdout %q, stderr %q; want the program run, fd 9 closed, and the Landlock warning", r.code, r.stdout, r.stderr)
				}
				if got, _ := os.ReadFile(cfg); w.sentinel() != "original" || len(got) != 0 {
					t.Errorf("written: sentinel %q, config %q", w.sentinel(), got)
				}
			})
		}
	}
}

// TestSeccompRefusedOneError: where a filter around omega-run refuses
// seccomp(2), the launch ends with 125 and one error line: PID 1 and the
// program's process both failed to install theirs, and both said so.
func TestSeccompRefusedOneError(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) { seccompRefusedOneError(t, u) })
	}
}

func seccompRefusedOneError(t *testing.T, u user) {
	w := newWorld(t, u)
	r := w.under([]string{probe, "seccomp-exec", "317=1"}, "--", "/bin/echo", "ran")
	errs := 0
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if !strings.HasPrefix(l, "omega-run: warning:") {
			errs++
		}
	}
	if r.code != 125 || r.stdout != "" || errs != 1 || !strings.Contains(r.stderr, "seccomp: install: operation not permitted") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 125 and one error line", r.code, r.stdout, r.stderr)
	}
}

// TestFallbackNothingStopsWrites: without Landlock, sandbox mode counts
// on its read-only mounts; where those are lost too (mounting refused, or
// no user namespace) nothing stops a write outside the writable set, and
// the warnings must say so rather than that the mounts still hold.
func TestFallbackNothingStopsWrites(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatal("bubblewrap is needed to simulate disabled user namespaces: apt-get install bubblewrap")
	}
	noLandlock := []string{probe, "seccomp-exec", sysLandlockCreateRuleset + "=38," + sysMount + "=1"}
	for name, wrap := range map[string][]string{
		"mount refused": noLandlock,
		"no user namespaces": append([]string{bwrap, "--unshare-user", "--uid", "65534", "--disable-userns", "--dev-bind", "/", "/", "--"},
			noLandlock...),
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, nobody)
			r := w.under(wrap, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
			if r.stdout != "ran\n" || !strings.Contains(r.stderr, "writes outside the writable set are NOT prevented") {
				t.Errorf("stdout %q, stderr %q; want the program run and the gap said", r.stdout, r.stderr)
			}
			if w.sentinel() != "pwned\n" {
				t.Errorf("sentinel %q: the simulation did not take Landlock and the mounts away", w.sentinel())
			}
		})
	}
}
