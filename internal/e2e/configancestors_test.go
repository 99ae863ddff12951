//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigAncestorModes: not only the directory holding a config file
// or a --seccomp profile is judged, but every one above it up to /, as
// sshd's StrictModes does: with /srv/team group-writable by a team (or
// 0777), anyone in it could rename omega/ away from under
// /srv/team/omega/config.toml and put their own there, and the next
// launch — root's service — read their mode = "rwx". Refused with one line
// naming the directory, its owner and mode and the chmod; the program
// does not run; so is a config named through a symlink in a directory
// others may write, who could re-point it. A config in the user's own
// directory in the sticky /tmp still runs. The directories' group is nogroup: not a private one.
func TestConfigAncestorModes(t *testing.T) {
	const sharedGID = 65534
	const widen = "[sandbox]\nmode = \"rwx\"\n"
	// team makes w.extra/team (mode) /omega/settings with content, all
	// the user's, and returns the settings file and the team directory.
	team := func(w *world, mode os.FileMode, content string) (string, string) {
		dir := filepath.Join(w.extra, "team")
		p := filepath.Join(dir, "omega", "settings")
		mustMkdir(t, filepath.Dir(p))
		writeFile(t, p, content)
		chownTree(t, dir, w.u)
		os.Lchown(dir, w.u.uid, sharedGID)
		os.Chmod(dir, mode)
		return p, dir
	}
	for _, u := range users {
		for _, c := range []struct {
			name string
			// setup returns the args, the file and the directory named.
			setup func(w *world) ([]string, string, string)
			who   string // who the error says may write it
			fix   string
		}{
			{"--config below a 0777 dir", func(w *world) ([]string, string, string) {
				p, dir := team(w, 0o777, widen)
				return []string{"--config", p}, p, dir
			}, "its group (nogroup) and every user", "go-w"},
			{"--seccomp below a team's dir", func(w *world) ([]string, string, string) {
				p, dir := team(w, 0o775, "{}")
				return []string{"--seccomp", p}, p, dir
			}, "its group (nogroup)", "g-w"},
			{"data dir's config below a 0777 home", func(w *world) ([]string, string, string) {
				p := filepath.Join(w.dataDir, "config.toml")
				writeFile(t, p, widen)
				os.Lchown(p, w.u.uid, w.u.gid)
				os.Lchown(w.home, w.u.uid, sharedGID)
				os.Chmod(w.home, 0o777)
				return nil, p, w.home
			}, "its group (nogroup) and every user", "go-w"},
		} {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				args, file, dir := c.setup(w)
				mode := map[string]string{"go-w": "0777", "g-w": "0775"}[c.fix]
				want := dir + " (owner " + u.name + ", mode " + mode + "), a directory above " + file + ", can be written by " + c.who +
					", not only by its owner, who could replace the file, which decides what a launch may do: chmod " + c.fix + " " + dir + " (or chmod +t " + dir + ")"
				r := w.run(append(args, "--", "/bin/sh", "-c", "echo ran")...)
				if r.code != 125 || r.stdout != "" || !strings.HasPrefix(r.stderr, "omega-run: ") ||
					!strings.Contains(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q; want 125, nothing run, and one line with %q", r.code, r.stdout, r.stderr, want)
				}
			})
		}
		// A link that its directory's other writers could re-point at
		// their own file, in a safe place of theirs.
		t.Run(u.name+"/--config through a link in a 0777 dir", func(t *testing.T) {
			w := newWorld(t, u)
			p := filepath.Join(w.dataDir, "real.toml")
			writeFile(t, p, widen)
			os.Lchown(p, w.u.uid, w.u.gid)
			dir := filepath.Join(w.extra, "links")
			mustMkdir(t, dir)
			link := filepath.Join(dir, "config.toml")
			os.Symlink(p, link)
			chownTree(t, dir, w.u)
			os.Lchown(dir, w.u.uid, sharedGID)
			os.Chmod(dir, 0o777)
			want := dir + " (owner " + u.name + ", mode 0777), the directory holding the symlink config.toml, can be written by its group (nogroup) and every user, not only by its owner, who could re-point it at another file"
			r := w.run("--config", link, "--", "/bin/sh", "-c", "echo ran")
			if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 125, nothing run, and one line with %q", r.code, r.stdout, r.stderr, want)
			}
		})
		t.Run(u.name+"/--config in the user's dir in /tmp", func(t *testing.T) {
			w := newWorld(t, u)
			dir, err := os.MkdirTemp("/tmp", "omega-e2e-cfg-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			p := filepath.Join(dir, "config.toml")
			writeFile(t, p, "[sandbox]\nmode = \"rx\"\n")
			chownTree(t, dir, u)
			if r := w.run("--config", p, "--", "/bin/sh", "-c", `echo "ran $OMEGA_SANDBOX"`); r.code != 0 || r.stdout != "ran rx\n" {
				t.Errorf("exit %d, stdout %q, stderr %q; want it run in rx mode", r.code, r.stdout, r.stderr)
			}
		})
	}
}
