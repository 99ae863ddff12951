//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// What one confined run leaves in the writable set must not widen the
// next one: each test plants with one launch and attacks with the next,
// judged from outside.

// TestPlantedPrivateTmp: a symlink left where the private /tmp lives
// (<data-dir>/tmp) would make the next sandbox's /tmp, writable, whatever
// it points to. The next launch refuses it.
func TestPlantedPrivateTmp(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx"} {
			t.Run(u.name+"/planted-in-"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				w.sh(mode, `mkdir -p "$DATA/tmp" && mv "$DATA/tmp" "$DATA/tmp.old" && ln -s "$O" "$DATA/tmp"`)
				if fi, err := os.Lstat(filepath.Join(w.dataDir, "tmp")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("the first run could not plant the symlink (%v): nothing to test", err)
				}
				r := w.sh("sandbox", `echo planted > /tmp/sentinel`)
				if got := w.sentinel(); got != "original" {
					t.Errorf("the next sandbox wrote through the planted /tmp: sentinel %q", got)
				}
				if r.code != 125 || !strings.Contains(r.stderr, "symlink") {
					t.Errorf("exit %d, want 125 naming the symlink; stderr %q", r.code, r.stderr)
				}
			})
		}
	}
}

// TestProtectedMovedAside: the read-only .git/config and a config file
// in a writable directory cannot be escaped by renaming the directory
// that holds them and putting a new one in its place.
func TestProtectedMovedAside(t *testing.T) {
	for _, u := range users {
		t.Run(u.name+"/git", func(t *testing.T) {
			w := newWorld(t, u)
			repo := gitRepo(t, w)
			r := w.sh("sandbox", `cd `+shQuote(repo)+` && mv .git .git.old; mkdir -p .git && cp -a .git.old/. .git/; echo '[core] fsmonitor = evil' >> .git/config`)
			b, _ := os.ReadFile(filepath.Join(repo, ".git", "config"))
			if strings.Contains(string(b), "evil") {
				t.Errorf("the program replaced .git/config by moving .git aside; stderr %q", r.stderr)
			}
		})
		t.Run(u.name+"/config-file", func(t *testing.T) {
			w := newWorld(t, u)
			conf := filepath.Join(w.extra, "conf", "omega.toml")
			mustMkdir(t, filepath.Dir(conf))
			writeFile(t, conf, "[sandbox]\nmode = \"sandbox\"\n")
			chownTree(t, w.extra, u)
			w.sh("sandbox", `cd "$X" && mv conf conf.old; mkdir conf && printf '[sandbox]\nmode = "rwx"\n' > conf/omega.toml`,
				"--config", conf, "--allow-write", w.extra)
			if b, _ := os.ReadFile(conf); !strings.Contains(string(b), `"sandbox"`) {
				t.Errorf("the program rewrote its next launch's config: %q", b)
			}
		})
	}
}

// TestProtectedUnderTmp: host /tmp is not the program's, but a data dir,
// --allow-write or omega-run binary below /tmp is: the config files and
// the binary there stay read-only like anywhere else.
func TestProtectedUnderTmp(t *testing.T) {
	requireRoot(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir, err := os.MkdirTemp("/tmp", "omega-e2e-tmp-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			conf, data, self := filepath.Join(dir, "c.toml"), filepath.Join(dir, "dd"), filepath.Join(dir, "omega-run")
			writeFile(t, conf, "[sandbox]\nmode = \"sandbox\"\n")
			if err := copyFile(bin, self); err != nil {
				t.Fatal(err)
			}
			chownTree(t, dir, u)
			os.Chmod(dir, 0o755)
			script := `printf '[sandbox]\nmode = "rwx"\n' > ` + shQuote(conf) + `; printf '[sandbox]\nmode = "rwx"\n' > ` + shQuote(data) + `/config.toml; ` +
				`cp /bin/true ` + shQuote(dir) + `/x && mv -f ` + shQuote(dir) + `/x ` + shQuote(self)
			r := w.runProg(self, "--config", conf, "--data-dir", data, "--allow-write", dir, "--", "/bin/sh", "-c", script)
			if b, _ := os.ReadFile(conf); !strings.Contains(string(b), `"sandbox"`) {
				t.Errorf("--config under /tmp rewritten: %q; stderr %q", b, r.stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(data, "config.toml")); strings.Contains(string(b), "rwx") {
				t.Errorf("the data dir's config under /tmp written: %q", b)
			}
			if fi, err := os.Stat(self); err != nil || fi.Size() < 100000 {
				t.Errorf("the omega-run binary under /tmp was replaced (%v)", err)
			}
		})
	}
}

// TestWorkdirUnderTmp: run from a host /tmp directory, the program starts
// in it (read-only), kept at its path in the private /tmp, rather than in
// whatever the private /tmp holds there — here the empty mount point an
// --allow-write run left: an agent's absolute paths there failed
// unexplained (both init stages). What the terminal is told, why it is
// read-only and what makes it writable, is TestWorkdirKeptWarnedOnce's:
// through a pipe, as for any working directory the program cannot
// write, nothing is said.
func TestWorkdirUnderTmp(t *testing.T) {
	w := newWorld(t, nobody)
	dir, err := os.MkdirTemp("/tmp", "omega-e2e-wd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	writeFile(t, filepath.Join(dir, "f"), "host file")
	chownTree(t, dir, nobody)
	if r := w.runIn(dir, "--allow-write", dir, "--", "/bin/cat", "f"); r.stdout != "host file" {
		t.Fatalf("with --allow-write: %q, stderr %q", r.stdout, r.stderr)
	}
	r := w.runIn(dir, "--", "/bin/cat", "f")
	if r.stdout != "host file" || r.stderr != "" {
		t.Errorf("without --allow-write: stdout %q, stderr %q; want the host's file, and through a pipe no warning", r.stdout, r.stderr)
	}
}

// TestWorkdirTmpItselfNoFix: started in the host's /tmp itself, the
// launch must not offer --allow-write . as the fix: that grant is of the
// sandbox's own /tmp, which the host's /tmp never becomes (the hint sent
// the user round in a circle, the same warning again). Through a pipe
// nothing is said of the working directory at all; on a terminal one
// note says the program starts in the sandbox's own /tmp
// (TestWorkdirWarningPrivateTrees).
func TestWorkdirTmpItselfNoFix(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		for _, args := range [][]string{{"--", "/bin/true"}, {"--allow-write", ".", "--", "/bin/true"}} {
			r := w.runIn("/tmp", args...)
			if r.code != 0 || strings.Contains(r.stderr, "working directory") || strings.Contains(r.stderr, "--allow-write . brings") {
				t.Errorf("%s %v: %+v; want no word of the working directory, nor --allow-write . as a fix", u.name, args, r)
			}
		}
	}
}

// TestStateSyncSymlink: the working copy of Claude Code's state is read
// back after the run without following a symlink the program left there
// (to a credential store its copy in home would then expose).
func TestStateSyncSymlink(t *testing.T) {
	w := newWorld(t, nobody)
	secret := secretAt(t, w, ".ssh/id_ed25519")
	claude, state := fakeClaude(t, w, `rm -f "$HOME/.claude/.claude.json" && ln -s "$HOME/.ssh/id_ed25519" "$HOME/.claude/.claude.json"`)
	chownTree(t, w.home, nobody)
	r := w.run("--", claude)
	if b, _ := os.ReadFile(state); strings.Contains(string(b), "SECRET") {
		t.Errorf("%s was copied into ~/.claude.json; stderr %q", secret, r.stderr)
	}
}

// TestHiddenWorkdir: started from inside a credential store, the program
// would keep it as its cwd past the mask; the launch is refused.
func TestHiddenWorkdir(t *testing.T) {
	w := newWorld(t, nobody)
	key := secretAt(t, w, ".ssh/sub/key")
	r := w.runIn(filepath.Dir(key), "--", "/bin/cat", "key")
	if strings.Contains(r.stdout, "SECRET") || r.code != 125 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 125 and no secret", r.code, r.stdout, r.stderr)
	}
}

// TestRefusalEscaped: the connect broker names a refused socket on the
// user's terminal; the program chose the name, so control bytes in it are
// escaped rather than sent to the terminal.
func TestRefusalEscaped(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9 refuses the connect itself, without the broker's message")
	}
	w := newWorld(t, nobody)
	path := filepath.Join(root, "esc-"+worldID(w)+"\x1b[2J.sock")
	var out, stderr string
	if bindAfterStartOut(t, w, path, &out, &stderr, "--", probe, "connect-unix-later", path) {
		t.Fatal("the program reached a host socket bound after the start")
	}
	if strings.Contains(stderr, "\x1b") || !strings.Contains(stderr, `\x1b[2J.sock`) {
		t.Errorf("stderr %q: want the refusal with the escape byte shown as \\x1b", stderr)
	}
}

// TestStateSyncLinkedHome: a ~/.claude.json that links into a dotfiles
// repository stays a link; the state goes where it points.
func TestStateSyncLinkedHome(t *testing.T) {
	w := newWorld(t, nobody)
	claude, state := fakeClaude(t, w, `echo '{"new": 1}' > "$HOME/.claude/.claude.json"`)
	dots := filepath.Join(w.home, "dotfiles", "claude.json")
	mustMkdir(t, filepath.Dir(dots))
	if err := os.Rename(state, dots); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dots, state); err != nil {
		t.Fatal(err)
	}
	chownTree(t, w.home, nobody)
	w.run("--", claude)
	if fi, err := os.Lstat(state); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("~/.claude.json is no longer a link (%v)", err)
	}
	if b, _ := os.ReadFile(dots); !strings.Contains(string(b), "new") {
		t.Errorf("the linked file did not get the state: %q", b)
	}
}

// TestConfigThroughSymlink: a --config named through a symlink that
// leads into a writable root is kept read-only like the file itself.
func TestConfigThroughSymlink(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			conf := filepath.Join(w.extra, "omega", "config.toml")
			mustMkdir(t, filepath.Dir(conf))
			writeFile(t, conf, "[sandbox]\nmode = \"sandbox\"\n")
			link := filepath.Join(w.home, "omegacfg")
			if err := os.Symlink(filepath.Dir(conf), link); err != nil {
				t.Fatal(err)
			}
			chownTree(t, filepath.Dir(w.home), u)
			w.sh("sandbox", `printf '[sandbox]\nmode = "rwx"\n' > "$X/omega/config.toml"`,
				"--config", filepath.Join(link, "config.toml"), "--allow-write", w.extra)
			if b, _ := os.ReadFile(conf); !strings.Contains(string(b), `"sandbox"`) {
				t.Errorf("the config named through %s was rewritten: %q", link, b)
			}
		})
	}
}

// TestMaskMovedAside: a credential store inside a writable root cannot
// be carried out from under its mask by renaming a directory above it.
func TestMaskMovedAside(t *testing.T) {
	w := newWorld(t, nobody)
	secretAt(t, w, ".config/gh/hosts.yml")
	w.run("--allow-write", w.home, "--", "/bin/mv", filepath.Join(w.home, ".config"), filepath.Join(w.home, ".config.x"))
	if !w.exists(filepath.Join(w.home, ".config", "gh", "hosts.yml")) {
		t.Error("~/.config was renamed: the next run would read ~/.config.x/gh unmasked")
	}
}

// TestStateSyncKeepsMode: the mode of ~/.claude.json stays its own, not
// the one the program gave its working copy.
func TestStateSyncKeepsMode(t *testing.T) {
	w := newWorld(t, nobody)
	claude, state := fakeClaude(t, w, `echo '{"new": 1}' > "$HOME/.claude/.claude.json" && chmod 666 "$HOME/.claude/.claude.json"`)
	chownTree(t, w.home, nobody)
	r := w.run("--", claude)
	if b, _ := os.ReadFile(state); !strings.Contains(string(b), "new") {
		t.Fatalf("state not synced back: %q; stderr %q", b, r.stderr)
	}
	if m := modeOf(t, state).Perm(); m != 0o600 {
		t.Errorf("~/.claude.json mode %v after the run, want 0600", m)
	}
}

// TestPlantedDataDir: a data dir replaced by a symlink is refused before
// omega-run creates anything in it (config.toml, tmp, workspace).
func TestPlantedDataDir(t *testing.T) {
	w := newWorld(t, nobody)
	data := filepath.Join(w.extra, "dd")
	w.sh("rx", `mv "$X/dd" "$X/dd.old" 2>/dev/null; ln -s "$O" "$X/dd"`, "--data-dir", data, "--allow-write", w.extra)
	r := w.run("--data-dir", data, "--allow-write", w.extra, "--", "/bin/true")
	if r.code != 125 {
		t.Errorf("exit %d, want 125; stderr %q", r.code, r.stderr)
	}
	for _, n := range []string{"config.toml", "tmp", "workspace"} {
		if w.exists(filepath.Join(w.outside, n)) {
			t.Errorf("%s was created through the planted data dir", n)
		}
	}
}

// TestTooManyProtected: tens of thousands of planted .envrc files would
// make each launch mount for minutes; past a bound the launch is refused
// at once, saying why.
func TestTooManyProtected(t *testing.T) {
	w := newWorld(t, nobody)
	ws := filepath.Join(w.dataDir, "workspace")
	for i := 0; i < 4100; i++ {
		d := filepath.Join(ws, fmt.Sprintf("d%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(d, ".envrc"), "")
	}
	chownTree(t, ws, nobody)
	r := w.run("--", "/bin/true")
	if r.code != 125 || !strings.Contains(r.stderr, "more than the 4096") {
		t.Errorf("exit %d, stderr %q; want 125 naming the bound", r.code, r.stderr)
	}
}

// fakeClaude is a script named claude (so omega-run syncs Claude Code's
// state for it) running script, and ~/.claude.json holding a user id
// (mode 0600).
func fakeClaude(t *testing.T, w *world, script string) (claude, state string) {
	t.Helper()
	claude = filepath.Join(w.home, "bin", "claude")
	mustMkdir(t, filepath.Dir(claude))
	writeExec(t, claude, "#!/bin/sh\n"+script+"\n")
	state = filepath.Join(w.home, ".claude.json")
	writeFile(t, state, `{"userID": "u"}`)
	os.Chmod(state, 0o600)
	return claude, state
}

// TestConfigLinkInRoot: a --config reached through a symlink inside a
// writable root is refused: the program could point the link at a file
// of its own for the next launch.
func TestConfigLinkInRoot(t *testing.T) {
	w := newWorld(t, nobody)
	real := filepath.Join(w.outside, "cfg")
	mustMkdir(t, real)
	writeFile(t, filepath.Join(real, "c.toml"), "[sandbox]\nmode = \"sandbox\"\n")
	if err := os.Symlink(real, filepath.Join(w.extra, "cfg")); err != nil {
		t.Fatal(err)
	}
	chownTree(t, filepath.Dir(w.home), nobody)
	r := w.run("--config", filepath.Join(w.extra, "cfg", "c.toml"), "--allow-write", w.extra, "--", "/bin/true")
	if r.code != 125 || !strings.Contains(r.stderr, "symlink inside the writable") {
		t.Errorf("exit %d, stderr %q; want 125 naming the link", r.code, r.stderr)
	}
}

// TestLinkOutOfRoot: a protected name made a symlink out of the writable
// set (.envrc -> a hidden key) does not make every later launch fail.
func TestLinkOutOfRoot(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	key := secretAt(t, w, ".ssh/id_ed25519")
	os.Remove(filepath.Join(repo, ".envrc"))
	if err := os.Symlink(key, filepath.Join(repo, ".envrc")); err != nil {
		t.Fatal(err)
	}
	chownTree(t, w.home, nobody)
	if r := w.run("--", "/bin/true"); r.code != 0 {
		t.Errorf("exit %d, stderr %q; want the launch to work", r.code, r.stderr)
	}
}
