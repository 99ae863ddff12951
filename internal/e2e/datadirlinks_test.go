//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataDirThroughOwnLinks: a data dir named through symlinks of the
// host's (/home -> /data/home, root's) and of its user's own (~/.omega
// pointing elsewhere) works as before now that its missing directories
// are made through a walk that, as root, follows no other user's
// symlink: the workspace, /tmp and config file are made where the links
// lead, 0700 for the directories.
func TestDataDirThroughOwnLinks(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			stash := filepath.Join(w.extra, "real", "stash")
			mustMkdir(t, stash)
			homeLink := filepath.Join(w.extra, "home")
			if err := os.Symlink("real", homeLink); err != nil {
				t.Fatal(err)
			}
			omega := filepath.Join(w.extra, "real", ".omega")
			if err := os.Symlink("stash", omega); err != nil {
				t.Fatal(err)
			}
			chownTree(t, filepath.Join(w.extra, "real"), u)
			r := w.run("--data-dir", filepath.Join(homeLink, ".omega"), "--", "/bin/sh", "-c", "echo hi > /tmp/f && cat /tmp/f")
			if r.code != 0 || r.stdout != "hi\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 0, hi", r.code, r.stdout, r.stderr)
			}
			for _, d := range []string{"workspace", "tmp"} {
				fi, err := os.Lstat(filepath.Join(stash, d))
				if err != nil || !fi.IsDir() {
					t.Errorf("%s not made in the link's target: %v", d, err)
				}
			}
			if _, err := os.Lstat(filepath.Join(stash, "config.toml")); err != nil {
				t.Errorf("config.toml not made in the link's target: %v", err)
			}
		})
	}
}

// TestDataDirHardLinkedRootLink: root runs a --user in a data dir in that
// user's home, which the user has made a second name of a symlink of
// root's (/var/run -> /run), as fs.protected_hardlinks=0, the kernel's
// default, lets anyone: the launch must refuse it (125) and make nothing
// where the link leads, as for a symlink of the user's own.
func TestDataDirHardLinkedRootLink(t *testing.T) {
	w := newWorld(t, rootUser)
	home, run := filepath.Join(w.extra, "nobody-home"), filepath.Join(w.extra, "run")
	mustMkdir(t, home)
	mustMkdir(t, run)
	chownTree(t, home, nobody)
	varRun := filepath.Join(w.extra, "varrun")
	if err := os.Symlink(run, varRun); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(home, ".omega")
	if err := os.Link(varRun, data); err != nil { // the user's ln, made here by root
		t.Fatal(err)
	}
	r := w.run("--user", "nobody", "--data-dir", data, "--workdir", "/", "--", "/bin/true")
	if r.code != 125 || !strings.Contains(r.stderr, "a symlink of another user (uid 65534)") {
		t.Errorf("exit %d, stderr %q; want 125, the link named as uid 65534's", r.code, r.stderr)
	}
	for _, name := range []string{"workspace", "tmp", "config.toml"} {
		if _, err := os.Lstat(filepath.Join(run, name)); err == nil {
			t.Errorf("%s made where the hard-linked symlink leads", name)
		}
	}
}
