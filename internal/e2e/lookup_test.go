//go:build linux

package e2e

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// aclUser and aclGroup name a POSIX ACL entry's kind (linux/posix_acl.h).
const (
	aclUser  = 0x02
	aclGroup = 0x08
)

// grantACL adds one named entry to path's access ACL, as `setfacl -m
// u:ID:PERM` (aclUser) or `g:ID:PERM` (aclGroup) would on a file that has
// none: the owner, group and other entries keep the mode's bits and the
// mask covers the group and the new entry. It writes the xattr itself, so
// the acl package is not needed; a file system without ACLs skips.
func grantACL(t *testing.T, path string, tag uint16, id uint32, perm os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	m := st.Mode().Perm()
	const obj = ^uint32(0) // the id of an entry that names no one
	type entry struct {
		tag  uint16
		perm os.FileMode
		id   uint32
	}
	// Sorted by tag, as the kernel wants them.
	entries := []entry{{0x01, m >> 6 & 7, obj}, {0x04, m >> 3 & 7, obj}, {0x10, m>>3&7 | perm, obj}, {0x20, m & 7, obj}}
	at := 1 // after ACL_USER_OBJ
	if tag == aclGroup {
		at = 2 // after ACL_GROUP_OBJ
	}
	entries = append(entries[:at], append([]entry{{tag, perm, id}}, entries[at:]...)...)
	blob := binary.LittleEndian.AppendUint32(nil, 2) // POSIX_ACL_XATTR_VERSION
	for _, e := range entries {
		blob = binary.LittleEndian.AppendUint16(blob, e.tag)
		blob = binary.LittleEndian.AppendUint16(blob, uint16(e.perm))
		blob = binary.LittleEndian.AppendUint32(blob, e.id)
	}
	if err := unix.Setxattr(path, "system.posix_acl_access", blob, 0); err != nil {
		if errors.Is(err, unix.EOPNOTSUPP) {
			t.Skipf("no POSIX ACLs on %s's file system", path)
		}
		t.Fatalf("setting an ACL on %s: %v", path, err)
	}
}

// ownedCopy copies /bin/true to path, owned by uid:gid with mode perm.
func ownedCopy(t *testing.T, path string, uid, gid int, perm os.FileMode) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := copyFile("/bin/true", path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

// TestProgramACL: execute permission an ACL grants counts, as it does for
// the program's execve. A caller whose program runs with its own ids and
// no capabilities is judged exactly (faccessat); otherwise an ACL leaves
// it to execve (an ACL that does not grant it then gives 126 from there).
func TestProgramACL(t *testing.T) {
	t.Run("nobody", func(t *testing.T) {
		w := newWorld(t, nobody)
		granted, other := filepath.Join(w.extra, "acl", "prog"), filepath.Join(w.extra, "acl", "others")
		ownedCopy(t, granted, 0, 0, 0o750)
		grantACL(t, granted, aclUser, uint32(nobody.uid), 0o5)
		ownedCopy(t, other, 0, 0, 0o750)
		grantACL(t, other, aclUser, 1234, 0o5)
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			if r := w.run("--mode", mode, "--", granted); r.code != 0 {
				t.Errorf("%s, ACL u:nobody:rx: exit %d, stderr %q; want it run", mode, r.code, r.stderr)
			}
			if r := w.run("--mode", mode, "--setenv", "PATH="+filepath.Dir(granted)+":/usr/bin:/bin", "--", "prog"); r.code != 0 {
				t.Errorf("%s, ACL u:nobody:rx found in PATH: exit %d, stderr %q; want it run", mode, r.code, r.stderr)
			}
			if r := w.run("--mode", mode, "--", other); r.code != 126 || !strings.Contains(r.stderr, "permission denied") {
				t.Errorf("%s, ACL for another user: exit %d, stderr %q; want 126", mode, r.code, r.stderr)
			}
		}
	})
	t.Run("root", func(t *testing.T) {
		w := newWorld(t, rootUser)
		forNobody, forRoot := filepath.Join(w.extra, "acl", "nobody"), filepath.Join(w.extra, "acl", "root")
		ownedCopy(t, forNobody, 0, 0, 0o750)
		grantACL(t, forNobody, aclUser, uint32(nobody.uid), 0o5)
		// Root without capabilities (rx, sandbox) runs another user's
		// 0700 file only by the ACL's entry for uid 0.
		ownedCopy(t, forRoot, 1234, 1234, 0o700)
		grantACL(t, forRoot, aclUser, 0, 0o5)
		denied := filepath.Join(w.extra, "acl", "denied")
		ownedCopy(t, denied, 0, 0, 0o750)
		grantACL(t, denied, aclGroup, 1234, 0o5)
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			if r := w.run("--mode", mode, "--user", "nobody", "--", forNobody); r.code != 0 {
				t.Errorf("%s --user nobody, ACL u:nobody:rx: exit %d, stderr %q; want it run", mode, r.code, r.stderr)
			}
			if r := w.run("--mode", mode, "--", forRoot); r.code != 0 {
				t.Errorf("%s, another user's 0700 file with ACL u:root:rx: exit %d, stderr %q; want it run", mode, r.code, r.stderr)
			}
			// The ACL grants nobody nothing: execve says so.
			if r := w.run("--mode", mode, "--user", "nobody", "--", denied); r.code != 126 || !strings.Contains(r.stderr, "permission denied") {
				t.Errorf("%s --user nobody, ACL g:1234:rx only: exit %d, stderr %q; want 126", mode, r.code, r.stderr)
			}
		}
	})
}

// script writes an executable script at path that prints text.
func script(t *testing.T, path, text string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	writeExec(t, path, "#!/bin/sh\necho "+text+"\n")
}

// TestProgramPathSearch: a PATH entry under a directory the program may
// not search is passed over, as execvp goes on after EACCES: the
// directories from / down are judged for the program's ids (mode bits
// without capabilities, an ACL leaves it to execve), a symlinked entry
// where it leads; and the only match behind one is 126, decided before
// the start.
func TestProgramPathSearch(t *testing.T) {
	t.Run("root", func(t *testing.T) {
		w := newWorld(t, rootUser)
		priv, others, pub := filepath.Join(w.extra, "priv"), filepath.Join(w.extra, "others"), filepath.Join(w.extra, "pub")
		script(t, filepath.Join(priv, "bin", "tool"), "priv")
		script(t, filepath.Join(priv, "bin", "only"), "priv")
		os.Chmod(priv, 0o700)
		script(t, filepath.Join(others, "bin", "tool"), "others")
		os.Chown(others, 1234, 1234)
		os.Chmod(others, 0o700)
		script(t, filepath.Join(pub, "bin", "tool"), "pub")
		os.Symlink(filepath.Join(priv, "bin"), filepath.Join(pub, "link"))
		aclDir := filepath.Join(w.extra, "acl")
		script(t, filepath.Join(aclDir, "bin", "tool"), "acl")
		os.Chmod(aclDir, 0o700)
		grantACL(t, aclDir, aclUser, uint32(nobody.uid), 0o1)
		path := func(dirs ...string) string {
			return "PATH=" + strings.Join(append(dirs, "/usr/bin", "/bin"), ":")
		}
		pubBin := filepath.Join(pub, "bin")
		cases := []struct {
			name  string
			modes []string
			args  []string
			want  string // stdout, or "126"
		}{
			{"--user nobody, root's 0700 dir first", []string{"sandbox", "rx", "rwx"}, []string{"--user", "nobody", "--setenv", path(filepath.Join(priv, "bin"), pubBin), "--", "tool"}, "pub"},
			{"--user nobody, a symlink into root's 0700 dir first", []string{"sandbox", "rx", "rwx"}, []string{"--user", "nobody", "--setenv", path(filepath.Join(pub, "link"), pubBin), "--", "tool"}, "pub"},
			{"--user nobody, root's 0700 dir with ACL u:nobody:x", []string{"sandbox", "rx", "rwx"}, []string{"--user", "nobody", "--setenv", path(filepath.Join(aclDir, "bin"), pubBin), "--", "tool"}, "acl"},
			{"--user nobody, the only match in root's 0700 dir", []string{"sandbox", "rx", "rwx"}, []string{"--user", "nobody", "--setenv", path(filepath.Join(priv, "bin"), pubBin), "--", "only"}, "126"},
			{"--user nobody, a path through root's 0700 dir", []string{"sandbox", "rx", "rwx"}, []string{"--user", "nobody", "--", filepath.Join(priv, "bin", "only")}, "126"},
			{"root without capabilities, another user's 0700 dir first", []string{"sandbox", "rx"}, []string{"--setenv", path(filepath.Join(others, "bin"), pubBin), "--", "tool"}, "pub"},
			{"root in rwx, another user's 0700 dir first", []string{"rwx"}, []string{"--setenv", path(filepath.Join(others, "bin"), pubBin), "--", "tool"}, "others"},
		}
		for _, c := range cases {
			for _, mode := range c.modes {
				r := w.run(append([]string{"--mode", mode}, c.args...)...)
				switch {
				case c.want == "126" && (r.code != 126 || !strings.Contains(r.stderr, "omega-run: "+c.args[len(c.args)-1]+": permission denied\n")):
					t.Errorf("%s, %s: exit %d, stderr %q; want 126 before the start", mode, c.name, r.code, r.stderr)
				case c.want != "126" && (r.code != 0 || r.stdout != c.want+"\n"):
					t.Errorf("%s, %s: exit %d, stdout %q, stderr %q; want %q", mode, c.name, r.code, r.stdout, r.stderr, c.want)
				}
			}
		}
	})
	t.Run("nobody", func(t *testing.T) {
		w := newWorld(t, nobody)
		priv, pub, aclDir := filepath.Join(w.extra, "priv"), filepath.Join(w.extra, "pub"), filepath.Join(w.extra, "acl")
		script(t, filepath.Join(priv, "bin", "tool"), "priv")
		os.Chown(priv, 0, 0)
		os.Chmod(priv, 0o700)
		script(t, filepath.Join(pub, "bin", "tool"), "pub")
		script(t, filepath.Join(aclDir, "bin", "tool"), "acl")
		os.Chown(aclDir, 0, 0)
		os.Chmod(aclDir, 0o700)
		grantACL(t, aclDir, aclUser, uint32(nobody.uid), 0o1)
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			for first, want := range map[string]string{priv: "pub", aclDir: "acl"} {
				r := w.run("--mode", mode, "--setenv", "PATH="+filepath.Join(first, "bin")+":"+filepath.Join(pub, "bin")+":/usr/bin:/bin", "--", "tool")
				if r.code != 0 || r.stdout != want+"\n" {
					t.Errorf("%s, %s first: exit %d, stdout %q, stderr %q; want %q", mode, first, r.code, r.stdout, r.stderr, want)
				}
			}
		}
	})
}
