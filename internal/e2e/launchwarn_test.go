//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRootMetadataWarning: Landlock has no rights for chmod, chown, utimes
// or xattrs, so a program running as root where only Landlock confines it
// (rx) may chmod any root-owned file. The launch says so (and refuses
// under --fail-closed); a program that is not root, or sandbox mode's
// read-only root, has no such gap on the whole system.
func TestRootMetadataWarning(t *testing.T) {
	const sign = "chmod 666 /etc/shadow"
	cases := []struct {
		name string
		u    user
		args []string
		warn bool
	}{
		{"root rx", rootUser, []string{"--mode", "rx"}, true},
		{"root rx --user nobody", rootUser, []string{"--mode", "rx", "--user", "nobody"}, false},
		{"nobody rx", nobody, []string{"--mode", "rx"}, false},
		{"root sandbox", rootUser, []string{"--mode", "sandbox"}, false},
		{"root rwx", rootUser, []string{"--mode", "rwx"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.u)
			r := w.run(append(c.args, "--", "/bin/sh", "-c", "echo ran")...)
			if r.code != 0 || r.stdout != "ran\n" || strings.Contains(r.stderr, sign) != c.warn {
				t.Fatalf("%+v; want the program to run, warning about metadata: %v", r, c.warn)
			}
			if !c.warn {
				return
			}
			r = w.run(append(c.args, "--fail-closed", "--", "/bin/sh", "-c", "echo ran")...)
			if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, sign) {
				t.Fatalf("--fail-closed: %+v; want 125 before the program runs", r)
			}
			r = w.run("explain", "--mode", "rx")
			if !strings.Contains(r.stdout, sign) || !strings.Contains(r.stdout, "             /dev/shm\n") {
				t.Errorf("explain --mode rx does not list the gap, or the host's /dev/shm as writable: %q", r.stdout)
			}
		})
	}
}

// TestHomeWritableWarning: --allow-write ~ makes what runs at the next login writable, and a credential
// store that does not exist yet can be created; the launch says so.
func TestHomeWritableWarning(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				script := `mkdir "$HOME/.ssh" && echo KEY >> "$HOME/.ssh/authorized_keys" && echo x >> "$HOME/.profile"`
				r := w.run("--mode", mode, "--allow-write", w.home, "--", "/bin/sh", "-c", script)
				if r.code != 0 || !strings.Contains(r.stderr, "holds the whole home directory") {
					t.Fatalf("%+v; want the writes to work and a warning", r)
				}
				r = w.run("--mode", mode, "--allow-write", w.extra, "--", "/bin/true")
				if r.code != 0 || strings.Contains(r.stderr, "home directory") {
					t.Errorf("a narrower --allow-write: %+v, want no warning", r)
				}
			})
		}
	}
}

// TestAllowWriteTmp: --allow-write /tmp in sandbox mode gives the host's
// /tmp nothing (the sandbox's /tmp is its own); the launch says so instead
// of doing nothing silently. In rx the host's /tmp is writable anyway.
func TestAllowWriteTmp(t *testing.T) {
	w := newWorld(t, nobody)
	r := w.run("--allow-write", "/tmp", "--", "/bin/true")
	if r.code != 0 || !strings.Contains(r.stderr, "--allow-write /tmp: in sandbox mode /tmp is the sandbox's own") {
		t.Errorf("sandbox: %+v; want a run and the warning", r)
	}
	r = w.run("--mode", "rx", "--allow-write", "/tmp", "--", "/bin/true")
	if r.code != 0 || strings.Contains(r.stderr, "--allow-write /tmp") {
		t.Errorf("rx: %+v; want a run without the warning", r)
	}
	// Nested, the inner sandbox falls back to no namespaces: /tmp is the
	// host's then, and the grant holds.
	r = w.run("--mode", "rx", "--", bin, "--allow-write", "/tmp", "--", "/bin/true")
	if r.code != 0 || strings.Contains(r.stderr, "--allow-write /tmp") || !strings.Contains(r.stderr, "user namespaces are unavailable") {
		t.Errorf("nested: %+v; want the fallback's warning only", r)
	}
}

// TestAllowWriteDevShm: started in /dev/shm, sandbox mode's program
// starts in the sandbox's own (TestWorkdirWarningPrivateTrees), a tmpfs
// gone when it ends; --allow-write . there (or /dev/shm) reaches nothing of
// the host's, which a launch through a pipe was not told: its file was
// lost silently. In rx the host's /dev/shm is writable, and no word.
func TestAllowWriteDevShm(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			name := "omega-e2e-shm-" + filepath.Base(filepath.Dir(w.home))
			t.Cleanup(func() { os.Remove(filepath.Join("/dev/shm", name)) })
			r := w.runIn("/dev/shm", "--allow-write", ".", "--", "/bin/sh", "-c", "echo x > "+name)
			_, err := os.Stat(filepath.Join("/dev/shm", name))
			if r.code != 0 || err == nil || !strings.Contains(r.stderr, "--allow-write /dev/shm: in sandbox mode /dev/shm is the sandbox's own") {
				t.Errorf("sandbox: %+v, stat %v; want a run, no host file and the warning", r, err)
			}
			r = w.runIn("/dev/shm", "--mode", "rx", "--allow-write", ".", "--", "/bin/sh", "-c", "echo x > "+name)
			if _, err := os.Stat(filepath.Join("/dev/shm", name)); r.code != 0 || err != nil || strings.Contains(r.stderr, "/dev/shm") {
				t.Errorf("rx: %+v, stat %v; want the host's file written, without a warning", r, err)
			}
		})
	}
}

// TestAllowWriteDev: --allow-write /dev, or . started there, made only
// the sandbox's own /dev writable in sandbox mode (a few device nodes,
// gone when it ends): the file written there was lost, silently, as in
// /dev/shm (TestAllowWriteDevShm); a directory below it that the
// sandbox's /dev lacks (/dev/net) was not there at all. Both warn now.
// In rx nothing is said.
func TestAllowWriteDev(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			name := "omega-e2e-dev-" + filepath.Base(filepath.Dir(w.home))
			t.Cleanup(func() { os.Remove(filepath.Join("/dev", name)) })
			r := w.runIn("/dev", "--allow-write", ".", "--", "/bin/sh", "-c", "echo x > "+name)
			_, err := os.Stat(filepath.Join("/dev", name))
			if r.code != 0 || err == nil || !strings.Contains(r.stderr, "--allow-write /dev: in sandbox mode /dev is the sandbox's own") {
				t.Errorf("sandbox: %+v, stat %v; want a run, no host file and the warning", r, err)
			}
			r = w.run("--allow-write", "/dev/net", "--", "/bin/true")
			if r.code != 0 || !strings.Contains(r.stderr, "--allow-write /dev/net: in sandbox mode /dev is the sandbox's own") {
				t.Errorf("sandbox, /dev/net: %+v; want the warning", r)
			}
			r = w.runIn("/dev", "--mode", "rx", "--allow-write", ".", "--", "/bin/true")
			if r.code != 0 || strings.Contains(r.stderr, "/dev") {
				t.Errorf("rx: %+v; want no warning", r)
			}
		})
	}
}

// TestSeccompNoneSetidWarning: only the seccomp filter keeps a program
// from making set-user-ID files in the writable set (nosuid does not stop
// setting the bit, Landlock has no right for chmod). With --seccomp none
// the chmod goes through — checked from outside — and the launch must say
// so; under the default profile it fails and nothing is said.
func TestSeccompNoneSetidWarning(t *testing.T) {
	const sign = "set-user-ID and set-group-ID files can be made"
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, prof := range []string{"none", "default"} {
				t.Run(u.name+"/"+mode+"/"+prof, func(t *testing.T) {
					w := newWorld(t, u)
					f := filepath.Join(w.dataDir, "workspace", "suid")
					writeFile(t, f, "#!/bin/sh\n")
					chownTree(t, f, w.u)
					r := w.run("--mode", mode, "--seccomp", prof, "--", probe, "chmod", f, "4755")
					made := modeOf(t, f)&os.ModeSetuid != 0
					if made != (prof == "none") || strings.Contains(r.stderr, sign) != made {
						t.Errorf("set-user-ID bit set: %v, warned: %v (stderr %q); want both %v", made, strings.Contains(r.stderr, sign), r.stderr, prof == "none")
					}
				})
			}
		}
	}
}

// TestPathWritableWarned: a PATH directory in the writable set, where the
// program can plant a `git` the user's next shell runs, is named at
// launch on a terminal in sandbox and rx modes; a PATH without one gets no
// such line, nor a launch whose stderr is no terminal (agents, services).
func TestPathWritableWarned(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			bindir := filepath.Join(w.dataDir, "bin")
			mustMkdir(t, bindir)
			chownTree(t, w.home, w.u)
			path := []string{"PATH=/usr/bin:" + bindir + ":/bin"}
			out := asJobEnv(t, w, path, "", "job-shell", bin, "--mode", mode, "--", "/bin/true")
			if !strings.Contains(out, "PATH directory "+bindir+" is in the writable set") || !strings.Contains(out, "JOB EXITED 0") {
				t.Errorf("want the PATH warning and exit 0; terminal:\n%s", out)
			}
			if out := asJob(t, w, "", "job-shell", bin, "--mode", mode, "--", "/bin/true"); strings.Contains(out, "PATH directory") {
				t.Errorf("warned without a writable PATH directory: %q", out)
			}
			if r := w.runWith(path, nil, bin, "--mode", mode, "--", "/bin/true"); strings.Contains(r.stderr, "PATH directory") {
				t.Errorf("warned with stderr not a terminal: %q", r.stderr)
			}
		})
	}
}

// TestSelfWritableWarned: omega-run run from a writable root (built in
// the project: ./omega-run) in rx mode, where no mount keeps it read-only
// as sandbox mode's bind does. The program can rewrite it, and the next
// launch runs the program's code unconfined: the launch says so, and
// --fail-closed refuses before the program runs. Before, rx said nothing.
func TestSelfWritableWarned(t *testing.T) {
	const sign = "the omega-run binary"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			self := filepath.Join(w.extra, "omega-run")
			if err := copyFile(bin, self); err != nil {
				t.Fatal(err)
			}
			chownTree(t, w.extra, u)
			script := `printf '\n#planted' >> "` + self + `" && echo rewrote`
			r := w.runProg(self, "--mode", "rx", "--allow-write", w.extra, "--", "/bin/sh", "-c", script)
			if !strings.Contains(r.stderr, sign) {
				t.Errorf("rx with omega-run in the writable set: no warning (stdout %q, stderr %.300q)", r.stdout, r.stderr)
			}
			if err := copyFile(bin, self); err != nil {
				t.Fatal(err)
			}
			r = w.runProg(self, "--mode", "rx", "--fail-closed", "--allow-write", w.extra, "--", "/bin/sh", "-c", script)
			if r.code != 125 || strings.Contains(r.stdout, "rewrote") || !strings.Contains(r.stderr, sign) {
				t.Errorf("--fail-closed: exit %d, stdout %q, stderr %.300q; want 125 before the program runs", r.code, r.stdout, r.stderr)
			}
			if r := w.runProg(self, "--mode", "rx", "--", "/bin/true"); strings.Contains(r.stderr, sign) {
				t.Errorf("omega-run outside the writable set warned: %.300q", r.stderr)
			}
		})
	}
}

// TestExplainEscaped: explain lists the files it keeps read-only, which
// a confined program may have made and named: a directory named with
// escape sequences (clear the screen, set the title) holding an .envrc.
// They must reach the terminal escaped, as every launch line does.
func TestExplainEscaped(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(w.extra, "x\x1b[2J\x1b]0;PWNED\x07y")
			mustMkdir(t, dir)
			writeFile(t, filepath.Join(dir, ".envrc"), "echo hi\n")
			chownTree(t, w.extra, u)
			r := w.run("explain", "--allow-write", w.extra, "--", "/bin/true")
			if r.code != 0 || strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") || !strings.Contains(r.stdout, `x\u001b[2J`) {
				t.Errorf("explain: exit %d, stdout %.600q, stderr %.300q; want the name escaped", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestExplainDarwinEscaped: explain --os darwin prints the sandbox-exec
// command, whose words name the working directory (a hostile
// repository's, or one a confined program made) and the program: they
// went out raw inside single quotes, so a name's escape sequences set the
// title or erased lines. They are ANSI-C quoted ($'\x1b'), which zsh and
// bash, macOS's shells, read back as the same bytes.
func TestExplainDarwinEscaped(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to read the command back")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := hostileDir(t, w)
			prog := "./p\x1b[2K\r\nomega-run: ok"
			r := w.runIn(dir, "explain", "--os", "darwin", "--allow-write", ".", "--", prog)
			_, line, _ := strings.Cut(r.stdout, "\ncommand: ")
			if r.code != 0 || !terminalSafe(r.stdout) || !strings.HasSuffix(line, "\n") {
				t.Fatalf("explain --os darwin: exit %d, stdout %q, stderr %q; want every name escaped", r.code, r.stdout, r.stderr)
			}
			out, err := exec.Command(bash, "-c", `printf '%s\0' `+strings.TrimSuffix(line, "\n")).Output()
			words := strings.Split(string(out), "\x00")
			// macOS's name of the directory: /var is /private/var there.
			if err != nil || !slices.Contains(words, "-DWRITABLE_ROOT_0=/private"+dir) || !slices.Contains(words, prog) {
				t.Errorf("bash read the command back as %q (%v), want the directory and %q whole", words, err, prog)
			}
		})
	}
}

// TestPromptEscaped: prompt names the directories a launch may write,
// the working directory among them with --allow-write . (a hostile
// repository's, or one a confined program made): their names' escape
// sequences reached the terminal raw where the text is printed (and the
// model, where it is given one). Escaped as explain's lines.
func TestPromptEscaped(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := hostileDir(t, w)
			r := w.runIn(dir, "prompt", "--allow-write", ".")
			if r.code != 0 || !terminalSafe(r.stdout+r.stderr) || !strings.Contains(r.stdout, `x\u001b]0;PWNED\u0007\u009b2J\u202ey`) {
				t.Errorf("prompt: exit %d, stdout %q, stderr %q; want the directory named, escaped", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestAllowWriteHiddenSaid: --allow-write of a credential store (or
// below a --hide path) reaches nothing in sandbox mode, where the store
// stays empty and read-only; the launch says so instead of letting the
// write fail silently. rx hides nothing: the grant holds, unsaid.
func TestAllowWriteHiddenSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			store := filepath.Join(w.home, ".ssh")
			mustMkdir(t, store)
			chownTree(t, store, u)
			touch := []string{"--allow-write", store, "--", "/bin/sh", "-c", `touch "$0/x"`, store}
			r := w.run(touch...)
			if r.code == 0 || !strings.Contains(r.stderr, "sandbox mode hides "+store) {
				t.Errorf("sandbox: %+v; want the write refused and the launch to say why", r)
			}
			r = w.run(append([]string{"--mode", "rx"}, touch...)...)
			if r.code != 0 || strings.Contains(r.stderr, "hides") {
				t.Errorf("rx: %+v; want the write to work, unsaid", r)
			}
		})
	}
}

// TestAllowSocketHiddenSaid: an --allow-socket inside a credential store
// (an agent's socket in ~/.ssh, gpg-agent's in ~/.gnupg) is not there in
// sandbox mode, where the store is an empty mask; the launch says so
// instead of the program finding no socket, unexplained. rx hides
// nothing: the socket is there, unsaid. The same for a store GNUPGHOME
// moved.
func TestAllowSocketHiddenSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			store := filepath.Join(w.home, ".ssh")
			mustMkdir(t, store)
			chownTree(t, store, u)
			sock := filepath.Join(store, "agent.sock")
			listenUnix(t, sock)
			look := []string{"--allow-socket", sock, "--", "/bin/sh", "-c", `test -S "$0"`, sock}
			r := w.run(look...)
			if r.code == 0 || !strings.Contains(r.stderr, "--allow-socket "+sock+": sandbox mode hides "+store) {
				t.Errorf("sandbox: %+v; want the socket out of sight and the launch to say why", r)
			}
			r = w.run(append([]string{"--mode", "rx"}, look...)...)
			if r.code != 0 || strings.Contains(r.stderr, "hides") {
				t.Errorf("rx: %+v; want the socket there, unsaid", r)
			}
			// A store GNUPGHOME moved is hidden as well.
			gpg := filepath.Join(w.extra, "gpg")
			mustMkdir(t, gpg)
			chownTree(t, gpg, u)
			agent := filepath.Join(gpg, "S.gpg-agent")
			listenUnix(t, agent)
			r = w.runEnv([]string{"GNUPGHOME=" + gpg}, "--allow-socket", agent, "--", "/bin/sh", "-c", `test -S "$0"`, agent)
			if r.code == 0 || !strings.Contains(r.stderr, "--allow-socket "+agent+": sandbox mode hides "+gpg) {
				t.Errorf("GNUPGHOME: %+v; want the socket out of sight and the launch to say why", r)
			}
		})
	}
}

// TestAllowSocketEngineSaid: --allow-socket of a container engine's
// socket hands the program the host (docker run -v /:/host), as
// --allow-write /run/user does, which warns; it was silent. An agent's
// socket is not named.
func TestAllowSocketEngineSaid(t *testing.T) {
	const sign = "through it the program can start programs outside the sandbox"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			engine, agent := filepath.Join(w.extra, "docker.sock"), filepath.Join(w.extra, "agent.sock")
			listenUnix(t, engine)
			listenUnix(t, agent)
			if r := w.run("--allow-socket", engine, "--", "/bin/true"); r.code != 0 || !strings.Contains(r.stderr, "--allow-socket "+engine+": "+sign) {
				t.Errorf("docker.sock: %+v; want it to run, warned", r)
			}
			if r := w.run("--allow-socket", agent, "--", "/bin/true"); r.code != 0 || strings.Contains(r.stderr, sign) {
				t.Errorf("agent.sock: %+v; want it to run, unwarned", r)
			}
		})
	}
}

// TestAllowSocketLinkSaid: SSH_AUTH_SOCK as a fixed link in ~/.ssh to the
// agent's socket (kept across tmux reattaches), given to --allow-socket:
// the socket came in at its real path, the variable still named the
// link in the hidden ~/.ssh, and ssh found no agent, with nothing said.
// The launch names the flags that work, and they do. The same for a link
// in the host's /tmp.
func TestAllowSocketLinkSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			real := filepath.Join(w.extra, "agent.sock")
			listenUnix(t, real)
			link := filepath.Join(w.home, ".ssh", "ssh_auth_sock")
			mustMkdir(t, filepath.Dir(link))
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			chownTree(t, filepath.Dir(link), u)
			look := []string{"--", "/bin/sh", "-c", `test -S "$SSH_AUTH_SOCK"`}
			env := []string{"SSH_AUTH_SOCK=" + link}
			r := w.runEnv(env, append([]string{"--allow-socket", link}, look...)...)
			fix := "--allow-socket " + real + " --setenv SSH_AUTH_SOCK=" + real
			if r.code == 0 || !strings.Contains(r.stderr, "--allow-socket "+link+": a link in ") || !strings.Contains(r.stderr, fix) {
				t.Fatalf("%+v; want the socket out of sight and the launch to name %q", r, fix)
			}
			if r = w.runEnv(env, append(strings.Fields(fix), look...)...); r.code != 0 || strings.Contains(r.stderr, "--allow-socket") {
				t.Errorf("with %s: %+v; want the socket there, unwarned", fix, r)
			}
			// The same link in the host's /tmp, which the sandbox's own
			// /tmp replaces.
			tmpLink := filepath.Join("/tmp", filepath.Base(w.extra)+"-"+u.name+"-agent")
			if err := os.Symlink(real, tmpLink); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(tmpLink) })
			r = w.runEnv([]string{"SSH_AUTH_SOCK=" + tmpLink}, append([]string{"--allow-socket", tmpLink}, look...)...)
			if r.code == 0 || !strings.Contains(r.stderr, "--allow-socket "+tmpLink+": a link in the host's /tmp") || !strings.Contains(r.stderr, fix) {
				t.Errorf("link in /tmp: %+v; want the socket out of sight and the launch to name %q", r, fix)
			}
			// A link in plain sight (home) to a socket the sandbox masks
			// (named by the link, masked by its real path): an empty file.
			homeLink := filepath.Join(w.home, "agent-link")
			if err := os.Symlink(real, homeLink); err != nil {
				t.Fatal(err)
			}
			r = w.runEnv([]string{"SSH_AUTH_SOCK=" + homeLink}, append([]string{"--allow-socket", homeLink}, look...)...)
			if r.code == 0 || !strings.Contains(r.stderr, "--allow-socket "+homeLink+": a link in ") || !strings.Contains(r.stderr, fix) {
				t.Errorf("link in home: %+v; want the socket out of sight and the launch to name %q", r, fix)
			}
			// A link in a directory of /tmp the launch brings in, to a
			// socket in /tmp (brought in by its real path), reaches it:
			// nothing to say.
			tmpDir, err := os.MkdirTemp("/tmp", "omega-e2e-agentdir-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmpDir) })
			tmpReal := filepath.Join(tmpDir, "agent.sock")
			listenUnix(t, tmpReal)
			inDir := filepath.Join(tmpDir, "agent")
			if err := os.Symlink(tmpReal, inDir); err != nil {
				t.Fatal(err)
			}
			chownTree(t, tmpDir, u)
			r = w.runEnv([]string{"SSH_AUTH_SOCK=" + inDir}, append([]string{"--allow-write", tmpDir, "--allow-socket", inDir}, look...)...)
			if r.code != 0 || strings.Contains(r.stderr, "--allow-socket") {
				t.Errorf("link in --allow-write %s: %+v; want the socket there, unwarned", tmpDir, r)
			}
		})
	}
}

// TestExplainInside: explain run inside a sandbox (an agent asking what
// it may do) describes a launch from there, not the confinement it is
// in; it says so first instead of leaving "namespaces: none" to be read
// as the agent's own. Outside, and with only the variable set, it does not.
func TestExplainInside(t *testing.T) {
	const sign = "inside:"
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.run("--mode", mode, "--", bin, "explain")
				if r.code != 0 || !strings.HasPrefix(r.stdout, sign) || !strings.Contains(r.stdout, "(mode: "+mode+")") {
					t.Errorf("explain inside %s: %+v; want it to say first that it runs inside one", mode, r)
				}
				if r := w.run("explain"); strings.Contains(r.stdout, sign) {
					t.Errorf("explain outside: %q", r.stdout)
				}
				if r := w.runEnv([]string{"OMEGA_SANDBOX=" + mode}, "explain"); strings.Contains(r.stdout, sign) {
					t.Errorf("explain outside with only OMEGA_SANDBOX set: %q", r.stdout)
				}
			})
		}
	}
}

// hostileDir makes a directory of w's user whose name sets the terminal's
// title, clears the screen (C1 CSI) and reverses the text after it.
func hostileDir(t *testing.T, w *world) string {
	t.Helper()
	dir := filepath.Join(w.extra, "x\x1b]0;PWNED\x07\u009b2J\u202ey")
	mustMkdir(t, dir)
	chownTree(t, w.extra, w.u)
	return dir
}
