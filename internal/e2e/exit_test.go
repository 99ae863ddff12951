//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes: the program's status, 128+N for signal N, and
// DESIGN.md's launcher codes, each with a one-line message.
func TestExitCodes(t *testing.T) {
	w := newWorld(t, nobody)
	notExec := filepath.Join(w.home, "notexec")
	writeFile(t, notExec, "#!/bin/sh\n")
	noShebang := filepath.Join(w.home, "noshebang")
	writeExec(t, noShebang, "echo hi\n")
	noInterp := filepath.Join(w.home, "nointerp")
	writeExec(t, noInterp, "#!/no/such/interp -x\n")
	crlf := filepath.Join(w.home, "crlf")
	writeExec(t, crlf, "#!/bin/sh\r\necho hi\r\n")
	cases := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"status", []string{"--", "/bin/sh", "-c", "exit 3"}, 3, ""},
		{"signal", []string{"--", "/bin/sh", "-c", "kill -TERM $$"}, 143, ""},
		{"not-found", []string{"--", "no-such-program-xyz"}, 127, "command not found"},
		{"not-found-path", []string{"--", "/no/such/program"}, 127, "no such file"},
		{"not-executable", []string{"--", notExec}, 126, "permission denied"},
		{"directory", []string{"--", "/usr"}, 126, "is a directory"},
		// 127, as sh, bash and env give; the line says what is missing.
		{"interpreter-missing", []string{"--", noInterp}, 127, "(the file exists: its interpreter /no/such/interp does not)"},
		// The kernel looks for "/bin/sh\r"; bash says "bad interpreter".
		{"interpreter-crlf", []string{"--", crlf}, 127, "(the file exists: its #! line ends in a carriage return (Windows line endings), so its interpreter is /bin/sh\\r, which does not exist: convert the file with dos2unix or sed -i 's/\\r$//')"},
		// 126, as env gives; shells run such a file with sh, execve does not.
		{"no-shebang", []string{"--", noShebang}, 126, "exec format error (a script without a #! line: start it with #!/bin/sh, or run it with sh)"},
		{"bad-mode", []string{"--mode", "bogus", "--", "true"}, 125, "unknown mode"},
		{"bad-net", []string{"--net", "bogus", "--", "true"}, 125, "unknown network"},
		{"bad-hostname", []string{"--hostname", "a\nb", "--", "true"}, 125, "--hostname"},                   // sandbox: at most 64 bytes, without…
		{"long-hostname", []string{"--hostname", strings.Repeat("h", 65), "--", "true"}, 125, "--hostname"}, // rx: needs --mode sandbox
		{"bad-flag", []string{"--bogus", "--", "true"}, 125, "unknown flag --bogus"},
		{"no-program", []string{}, 125, "no program given"},
		{"missing-allow-write", []string{"--allow-write", "/no/such/dir", "--", "true"}, 125, "--allow-write /no/such/dir: no such file or directory (mkdir -p /no/such/dir creates it)"},
		{"uncreatable-data-dir", []string{"--data-dir", "/proc/omega", "--", "true"}, 125, "cannot create"},
		{"allow-write-file", []string{"--allow-write", notExec, "--", "true"}, 125, "--allow-write " + notExec + ": not a directory"},
		{"allow-write-root", []string{"--allow-write", "/", "--", "true"}, 125, "rwx"},
		{"preserve-fds-not-open", []string{"--preserve-fds", "2", "--", "true"}, 125, "fd 3 is not open"},
		{"bad-rlimit", []string{"--rlimit", "nofile=lots", "--", "true"}, 125, "--rlimit"},
		{"bad-setenv", []string{"--setenv", "NOEQUALS", "--", "true"}, 125, "KEY=VALUE"},
	}
	// The same failure reads the same in both modes: sandbox mode's
	// exec failures had an "init: " of their own.
	said := map[string]string{}
	for _, mode := range confinedModes {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				r := w.run(append([]string{"--mode", mode}, c.args...)...)
				if prev, ok := said[c.name]; ok && (c.code == 126 || c.code == 127) && prev != r.stderr {
					t.Errorf("stderr = %q, want the other mode's %q", r.stderr, prev)
				}
				said[c.name] = r.stderr
				if c.name == "bad-mode" {
					r = w.run(c.args...)
				}
				if r.code != c.code {
					t.Errorf("exit %d, want %d (stderr %q)", r.code, c.code, r.stderr)
				}
				if c.message == "" {
					return
				}
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.message) {
					t.Errorf("stderr = %q, want one line 'omega-run: …%s…'", r.stderr, c.message)
				}
			})
		}
	}
	_ = os.Remove
}

// TestExecHints: a program whose ELF loader is missing is explained like
// one whose #! interpreter is, and what the file names reaches the
// terminal without its control characters.
func TestExecHints(t *testing.T) {
	w := newWorld(t, nobody)
	elf, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	loader := []byte("/lib64/ld-linux-")
	i := strings.Index(string(elf), string(loader))
	if i < 0 {
		t.Skip("/bin/true names no /lib64/ld-linux-* loader here")
	}
	copy(elf[i:], "/no/such/loader/")
	noLoader := filepath.Join(w.home, "noloader")
	escapes := filepath.Join(w.home, "escapes")
	if err := os.WriteFile(noLoader, elf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(escapes, []byte("#!/no/\x1b[2J\x1b]0;TITLE\a\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, mode := range confinedModes {
		r := w.run("--mode", mode, "--", noLoader)
		if r.code != 127 || !strings.Contains(r.stderr, "(the file exists: the ELF loader it names does not)") {
			t.Errorf("%s, missing loader: exit %d, stderr %q", mode, r.code, r.stderr)
		}
		r = w.run("--mode", mode, "--", escapes)
		if r.code != 127 || strings.ContainsAny(r.stderr, "\x1b\a") || !strings.Contains(r.stderr, "its interpreter /no/?[2J?]0;TITLE? does not") {
			t.Errorf("%s, escapes in #!: exit %d, stderr %q", mode, r.code, r.stderr)
		}
	}
}

// TestSeccompProfileFromPipe: a profile given as a pipe (bash's <(…)) is
// read once: a second read finds it empty. The launch runs it; explain
// describes it.
func TestSeccompProfileFromPipe(t *testing.T) {
	w := newWorld(t, nobody)
	profile := `<(printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mkdirat", "mkdir"], "action": "SCMP_ACT_ERRNO"}]}')`
	for _, mode := range confinedModes {
		r := w.runProg("/bin/bash", "-c", `"$0" --mode `+mode+` --seccomp `+profile+` -- /bin/sh -c 'mkdir "$HOME/.omega/workspace/d" || echo refused'`, bin)
		if r.code != 0 || !strings.Contains(r.stdout, "refused") {
			t.Errorf("%s: %+v; want the profile applied (mkdir refused)", mode, r)
		}
	}
	r := w.runProg("/bin/bash", "-c", `"$0" explain --seccomp `+profile+` -- /bin/true`, bin)
	if r.code != 0 || !strings.Contains(r.stdout, "mkdirat") {
		t.Errorf("explain: %+v; want the profile's rules", r)
	}
}

// TestLauncherCannotStartThread: a caller at its process limit (ulimit -u,
// LimitNPROC=), or behind a filter refusing clone3 (glibc's pthread_create
// has no fallback for EPERM), cannot give the Go runtime its threads. It
// gets 125 and the cause in a few lines, not a goroutine dump and exit
// status 2, which it could not tell from the program's own 2.
func TestLauncherCannotStartThread(t *testing.T) {
	w := newWorld(t, nobody)
	noClone3 := []string{probe, "seccomp-exec", sysClone3 + "=1"}
	for _, mode := range []string{"sandbox", "rx", "rwx"} {
		r := w.runProg("prlimit", "--nproc=1", bin, "--mode", mode, "--", "/bin/echo", "ran")
		if r.code != 125 || strings.Contains(r.stdout, "ran") || strings.Contains(r.stderr, "goroutine") ||
			!strings.Contains(r.stderr, "omega-run: stopped: ") || !strings.Contains(r.stderr, "process limit") {
			t.Errorf("%s at nproc=1: exit %d, stdout %q, stderr %.300q; want 125 and the cause", mode, r.code, r.stdout, r.stderr)
		}
		// musl's pthread_create uses clone: the static build starts.
		r = w.runProg(noClone3[0], append(noClone3[1:], bin, "--mode", mode, "--", "/bin/echo", "ran")...)
		if r.code != 0 && (r.code != 125 || strings.Contains(r.stderr, "goroutine") || !strings.Contains(r.stderr, "clone3")) {
			t.Errorf("%s with clone3 refused: exit %d, stderr %.300q; want it run, or 125 naming clone3", mode, r.code, r.stderr)
		}
	}
}

// TestLauncherThreadStackNoRoom: pthread_create's EAGAIN also means a
// thread's stack did not fit under the address-space limit (glibc sizes it
// by ulimit -s; ulimit -v near 1.2 GB does it with the default stack too).
// The line must say so, not send the user to a process limit they are not
// at. musl's small default stacks fit: the static build starts.
func TestLauncherThreadStackNoRoom(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			r := w.runProg("prlimit", "--stack=2000000000", "--as=3000000000", bin, "--mode", mode, "--", "/bin/echo", "ran")
			if r.code == 0 && strings.Contains(r.stdout, "ran") {
				continue
			}
			if r.code != 125 || !strings.Contains(r.stderr, "address-space limit") || strings.Contains(r.stderr, "process limit") {
				t.Errorf("%s, %s, 2 GB stacks under a 3 GB address-space limit: exit %d, stderr %.400q; want it run, or 125 naming the address-space limit",
					u.name, mode, r.code, r.stderr)
			}
		}
	}
}

// TestProgramPath: the program is found in the PATH it will have (--setenv
// PATH=…), as `env PATH=… prog` finds it, and with PATH unset in the
// default path, as execvp does.
func TestProgramPath(t *testing.T) {
	w := newWorld(t, nobody)
	dir := filepath.Join(w.home, "mybin")
	mustMkdir(t, dir)
	writeFile(t, filepath.Join(dir, "mytool"), "#!/bin/sh\necho found\n")
	os.Chmod(filepath.Join(dir, "mytool"), 0o755)
	chownTree(t, w.home, nobody)
	// Root's own copy first in PATH, which nobody may not run: execvp
	// goes on to the next one.
	rootOnly := filepath.Join(w.extra, "rootbin")
	mustMkdir(t, rootOnly)
	writeFile(t, filepath.Join(rootOnly, "mytool"), "#!/bin/sh\necho root's\n")
	os.Chmod(filepath.Join(rootOnly, "mytool"), 0o700)
	for _, mode := range []string{"sandbox", "rx", "rwx"} {
		if r := w.run("--mode", mode, "--setenv", "PATH="+rootOnly+":"+dir+":/usr/bin:/bin", "--", "mytool"); r.code != 0 || r.stdout != "found\n" {
			t.Errorf("%s --setenv PATH: exit %d, stdout %q, stderr %q", mode, r.code, r.stdout, r.stderr)
		}
		if r := w.run("--mode", mode, "--unsetenv", "PATH", "--", "ls", "/"); r.code != 0 {
			t.Errorf("%s --unsetenv PATH: exit %d, stderr %q; want ls from the default path", mode, r.code, r.stderr)
		}
	}
}

// TestProgramPathRoot: a root caller's program in rx and sandbox mode has
// no capabilities, so another user's 0700 copy first in PATH is not one
// it may run, and the lookup goes on; in rwx it keeps root's and runs it.
func TestProgramPathRoot(t *testing.T) {
	w := newWorld(t, rootUser)
	other, mine := filepath.Join(w.extra, "other"), filepath.Join(w.extra, "mine")
	for dir, text := range map[string]string{other: "others", mine: "mine"} {
		mustMkdir(t, dir)
		writeFile(t, filepath.Join(dir, "tool"), "#!/bin/sh\necho "+text+"\n")
	}
	os.Chown(filepath.Join(other, "tool"), 1234, 1234)
	os.Chmod(filepath.Join(other, "tool"), 0o700)
	os.Chmod(filepath.Join(mine, "tool"), 0o755)
	for mode, want := range map[string]string{"sandbox": "mine\n", "rx": "mine\n", "rwx": "others\n"} {
		if r := w.run("--mode", mode, "--setenv", "PATH="+other+":"+mine+":/usr/bin:/bin", "--", "tool"); r.code != 0 || r.stdout != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", mode, r.code, r.stdout, r.stderr, want)
		}
	}
}
