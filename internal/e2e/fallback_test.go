//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Syscall numbers on x86_64 for the simulations below.
const (
	sysMount                 = "165"
	sysMountSetattr          = "442"
	sysFsopen                = "430"
	sysLandlockCreateRuleset = "444"
	sysClone3                = "435"
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
// the namespaces are created but mounting fails with EPERM. --fail-closed
// says what it refused (before: only "init: mounts: mount none on /").
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
	if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "--fail-closed: mount namespace unusable") {
		t.Errorf("--fail-closed: exit %d stdout %q stderr %q; want 125, nothing run, and why", r.code, r.stdout, r.stderr)
	}
	// What the caller asked to hide or keep read-only only mounts do:
	// refused, as rx refuses them, rather than run without.
	for _, flag := range []string{"--hide", "--read-only"} {
		r = w.under(noMount, flag, filepath.Join(w.dataDir, "workspace"), "--", "/bin/sh", "-c", "echo ran")
		if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "--hide and --read-only need the sandbox's mounts") {
			t.Errorf("%s: exit %d stdout %q stderr %q; want 125 and nothing run", flag, r.code, r.stdout, r.stderr)
		}
	}
}

// TestFallbackMountRefusedRoot: with the mounts refused, root's program
// has only Landlock, which has no rights for chmod, utimes or xattrs, and
// every root-owned file is its own: said as in rx and the user-namespace
// fallback (before, this fallback said nothing of it).
func TestFallbackMountRefusedRoot(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			noMount := []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}
			sentinel := filepath.Join(w.outside, "sentinel")
			r := w.under(noMount, "--", "/bin/chmod", "600", sentinel)
			if !strings.Contains(r.stderr, "mount namespace unusable") {
				t.Fatalf("the mounts were not refused; stderr %q", r.stderr)
			}
			if st, err := os.Stat(sentinel); err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("chmod outside the writable set did not go through (%v): the premise changed", err)
			}
			if said := strings.Contains(r.stderr, "chmod 666 /etc/shadow"); said != (u.uid == 0) {
				t.Errorf("root's metadata warning said: %v, want %v; stderr %q", said, u.uid == 0, r.stderr)
			}
		})
	}
}

// noUsernsWhy is what the fallback and check say where bubblewrap's
// --disable-userns leaves no user namespace to create (clone: ENOSPC).
const noUsernsWhy = "creating them failed with ENOSPC: the kernel's limit user.max_user_namespaces is 0 or used up"

// TestFallbackNoUserNamespaces runs omega-run where creating a user
// namespace fails, inside bubblewrap's --disable-userns. Root's program
// then has only Landlock, as in rx, and gets rx's warning about metadata.
func TestFallbackNoUserNamespaces(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			wrap := noUserns(t, u.uid)
			r := w.under(wrap, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
			if !strings.Contains(r.stderr, "user namespaces are unavailable") || !strings.Contains(r.stdout, "ran") {
				t.Errorf("want one warning and a run; stdout %q stderr %q", r.stdout, r.stderr)
			}
			// ENOSPC is said as the limit it is, not a full disk.
			if !strings.Contains(r.stderr, noUsernsWhy) || strings.Contains(r.stderr, "no space left") {
				t.Errorf("the warning does not say %q: %q", noUsernsWhy, r.stderr)
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
			r = w.under(wrap, "--read-only", filepath.Join(w.dataDir, "workspace"), "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "--hide and --read-only need the sandbox's mounts") {
				t.Errorf("--read-only: exit %d stdout %q stderr %q; want 125 and nothing run", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestCheckNoUserNamespaces: where user namespaces fail, sandbox mode
// runs without PID 1 and its connect broker, and every host socket stays
// reachable; check must not name the broker as what covers them.
func TestCheckNoUserNamespaces(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			wrap := noUserns(t, u.uid)
			r := w.under(wrap, "check")
			if r.code != 1 || !strings.Contains(r.stdout, "namespaces:      no: "+noUsernsWhy) {
				t.Fatalf("exit %d, stdout %q; want namespaces: no, the launch's reason, and exit 1", r.code, r.stdout)
			}
			if strings.Contains(r.stdout, "Landlock RESOLVE_UNIX") {
				t.Skip("Landlock refuses host sockets itself here")
			}
			if strings.Contains(r.stdout, "host sockets:    connect broker") || !strings.Contains(r.stdout, "host sockets:    none") {
				t.Errorf("check names a connect broker that a launch here would not have: %q", r.stdout)
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
	noLandlock := []string{probe, "seccomp-exec", sysLandlockCreateRuleset + "=38," + sysMount + "=1"}
	for name, wrap := range map[string][]string{
		"mount refused": noLandlock,
		"no user namespaces": append(noUserns(t, nobody.uid),
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

// TestOpenat2Refused: the launcher opens the paths it mounts, binds and
// hands to Landlock with one openat2, and walks them one component at a
// time where that fails. A filter around omega-run may refuse openat2
// (ENOSYS, EPERM) or answer it with errno 0, which "returns" fd 0: that
// must not be taken for the path. Here fd 0 is a directory outside the
// writable set; from outside, the program's write there must not have
// happened, while its writes to /tmp still work.
func TestOpenat2Refused(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, errno := range []string{"0", "1", "38"} {
				t.Run(u.name+"/"+mode+"/"+errno, func(t *testing.T) {
					w := newWorld(t, u)
					// sandbox refuses a directory on stdin (TestHostDirectoryFD):
					// there fd 0 is /dev/null, which the init stage, taking
					// it for the directory it opened, would fail to mount on.
					stdin := w.outside
					if mode == "sandbox" {
						stdin = "/dev/null"
					}
					// A new file each time: one left by an earlier run whose
					// pid this shell got back belongs to nobody, and a root
					// program has no CAP_DAC_OVERRIDE to write it (EACCES).
					script := `echo pwned > "$0/f"; f=$(mktemp /tmp/openat2-XXXXXX) && echo ok > "$f" && rm "$f" && echo wrote-tmp`
					r := w.runProg("/bin/sh", "-c", `exec "$@" < "$0"`, stdin,
						probe, "seccomp-exec", "437="+errno, bin, "--mode", mode, "--", "/bin/sh", "-c", script, w.outside)
					if _, err := os.Stat(filepath.Join(w.outside, "f")); err == nil {
						t.Fatalf("the program wrote to the directory on its stdin (%+v)", r)
					}
					if r.code != 0 || !strings.Contains(r.stdout, "wrote-tmp") {
						t.Errorf("%+v; want the program to run and write to /tmp", r)
					}
				})
			}
		}
	}
}

// TestFailClosedNoBroker: where the connect broker cannot be set up (a
// seccomp listener around omega-run already: the kernel allows one), a
// launch warns that late host sockets stay reachable, and --fail-closed
// refuses saying that, not only "connect broker: seccomp(NEW_LISTENER)".
func TestFailClosedNoBroker(t *testing.T) {
	w := newWorld(t, nobody)
	listener := []string{probe, "landlock-abi", "7"} // answers landlock_create_ruleset through a seccomp listener
	r := w.under(listener, "--", "/bin/echo", "ran")
	if !strings.Contains(r.stderr, "connect broker unavailable") || r.stdout != "ran\n" {
		t.Fatalf("no broker warning and a run; stdout %q stderr %q: the premise changed", r.stdout, r.stderr)
	}
	r = w.under(listener, "--fail-closed", "--", "/bin/echo", "ran")
	if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: connect broker unavailable") ||
		!strings.Contains(r.stderr, "stay reachable") {
		t.Errorf("--fail-closed: exit %d stdout %q stderr %q; want 125, nothing run, and why", r.code, r.stdout, r.stderr)
	}
}

// noUserns is the command prefix that runs what follows as uid, inside
// bubblewrap's --disable-userns, where creating a user namespace fails:
// how the fallback tests make user namespaces unavailable (the sysctls
// need CAP_SYS_RESOURCE).
func noUserns(t *testing.T, uid int) []string {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatal("bubblewrap is needed to simulate disabled user namespaces: apt-get install bubblewrap")
	}
	return []string{bwrap, "--unshare-user", "--uid", strconv.Itoa(uid), "--disable-userns", "--dev-bind", "/", "/", "--"}
}

// runNoUserns runs omega-run's args (bin first) as uid where user
// namespaces are unavailable (noUserns).
func (w *world) runNoUserns(uid int, args ...string) result {
	w.t.Helper()
	wrap := noUserns(w.t, uid)
	return w.runProg(wrap[0], append(wrap[1:], args...)...)
}
