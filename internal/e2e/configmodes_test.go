//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFileModes: a config file (the data dir's, a --config) or a
// --seccomp profile that its group or every user may write, or may
// replace through a directory without the sticky bit, decides the next
// launch for them: a root's config.toml of mode 0664 let the group ask
// for mode = "rwx". Refused, as sshd's StrictModes does, with one line
// naming the file, its owner, its mode and the chmod that fixes it; the
// program does not run. A file of another user in a data dir is refused
// for a caller that is not root too (root's: TestDataDirOfAnotherUser).
// The documented set-ups (a 0700 or StateDirectory's 0755 data dir, a
// file in the sticky /tmp) run, and so does a group-writable file whose
// group is its owner's alone (user private groups under umask 002).
// The files' group is nogroup, which Debian's sync has as its primary
// group: not a private one.
func TestConfigFileModes(t *testing.T) {
	const sharedGID = 65534
	const widen = "[sandbox]\nmode = \"rwx\"\n"
	const rx = "[sandbox]\nmode = \"rx\"\n"
	type setup func(w *world) (args []string, named string)
	dataConfig := func(content string, mode, dirMode os.FileMode) setup {
		return func(w *world) ([]string, string) {
			p := filepath.Join(w.dataDir, "config.toml")
			writeFile(t, p, content)
			os.Lchown(p, w.u.uid, sharedGID)
			os.Chmod(p, mode)
			os.Lchown(w.dataDir, w.u.uid, sharedGID)
			os.Chmod(w.dataDir, dirMode)
			if dirMode&0o022 != 0 && dirMode&os.ModeSticky == 0 {
				return nil, w.dataDir
			}
			return nil, p
		}
	}
	named := func(flag, content string, mode os.FileMode) setup {
		return func(w *world) ([]string, string) {
			p := filepath.Join(w.extra, "settings")
			writeFile(t, p, content)
			os.Lchown(p, w.u.uid, sharedGID)
			os.Chmod(p, mode)
			return []string{flag, p}, p
		}
	}
	for _, u := range users {
		for _, c := range []struct {
			name  string
			setup setup
			want  string // "" runs in rx mode
		}{
			{"config 0664", dataConfig(widen, 0o664, 0o700), "mode 0664) can be written by its group ({group}), not only by its owner, and it decides what a launch may do: chmod g-w {path}"},
			{"config 0646", dataConfig(widen, 0o646, 0o700), "mode 0646) can be written by every user, not only by its owner, and it decides what a launch may do: chmod o-w {path}"},
			{"data dir 0777", dataConfig(widen, 0o644, 0o777), "mode 0777), the directory holding config.toml, can be written by its group ({group}) and every user, not only by its owner, who could replace the file, which decides what a launch may do: chmod go-w {path} (or chmod +t"},
			{"--config 0666", named("--config", widen, 0o666), "mode 0666) can be written by its group ({group}) and every user"},
			{"--seccomp 0664", named("--seccomp", "{}", 0o664), "mode 0664) can be written by its group ({group})"},
			{"config 0600 in a 0700 data dir", dataConfig(rx, 0o600, 0o700), ""},
			{"config 0644 in StateDirectory's 0755", dataConfig(rx, 0o644, 0o755), ""},
			{"config in a sticky data dir", dataConfig(rx, 0o644, os.ModeSticky|0o777), ""},
		} {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				args, path := c.setup(w)
				r := w.run(append(args, "--", "/bin/sh", "-c", `echo "ran $OMEGA_SANDBOX"`)...)
				if c.want == "" {
					if r.code != 0 || r.stdout != "ran rx\n" {
						t.Errorf("exit %d, stdout %q, stderr %q; want it run in rx mode", r.code, r.stdout, r.stderr)
					}
					return
				}
				want := strings.NewReplacer("{group}", "nogroup", "{path}", path).Replace(c.want)
				line := "omega-run: "
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, path+" (owner "+u.name+", "+want) ||
					!strings.HasPrefix(r.stderr, line) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q; want 125, nothing run, and one line with %q", r.code, r.stdout, r.stderr, path+" (owner "+u.name+", "+want)
				}
			})
		}
	}
	t.Run("root/config 0664 in root's private group", func(t *testing.T) {
		if g, _ := os.ReadFile("/etc/group"); !strings.HasPrefix(string(g), "root:x:0:\n") {
			t.Skip("root's group has members here")
		}
		w := newWorld(t, rootUser)
		p := filepath.Join(w.dataDir, "config.toml")
		writeFile(t, p, rx)
		os.Chmod(p, 0o664)
		os.Chmod(w.dataDir, 0o775)
		if r := w.run("--", "/bin/sh", "-c", `echo "ran $OMEGA_SANDBOX"`); r.code != 0 || r.stdout != "ran rx\n" {
			t.Errorf("exit %d, stdout %q, stderr %q; want it run in rx mode", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("nobody/config of another user", func(t *testing.T) {
		w := newWorld(t, nobody)
		p := filepath.Join(w.dataDir, "config.toml")
		writeFile(t, p, widen)
		os.Lchown(p, 12345, 12345)
		if r := w.run("--", "/bin/sh", "-c", "echo ran"); r.code != 125 || !strings.Contains(r.stderr, p+" belongs to another user (uid 12345)") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 125, said", r.code, r.stdout, r.stderr)
		}
	})
}
