//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestIdentityAndCapabilities: the program sees the caller's own ids, has
// no_new_privs and no capabilities in any set.
func TestIdentityAndCapabilities(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.sh(mode, `id -u; id -g; grep -E '^(NoNewPrivs|Cap(Inh|Prm|Eff|Bnd|Amb)):' /proc/self/status`)
				if r.code != 0 {
					t.Fatalf("code %d: %s", r.code, r.stderr)
				}
				lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
				if lines[0] != fmt.Sprint(u.uid) || lines[1] != fmt.Sprint(u.gid) {
					t.Errorf("ids inside = %s/%s, want %d/%d", lines[0], lines[1], u.uid, u.gid)
				}
				fields := statusFields(lines[2:])
				if fields["NoNewPrivs"] != "1" {
					t.Errorf("NoNewPrivs = %q, want 1", fields["NoNewPrivs"])
				}
				for _, set := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb", "CapBnd"} {
					if set == "CapBnd" && mode == "rx" && u.uid != 0 {
						continue // no CAP_SETPCAP to shrink it; documented in README
					}
					if fields[set] != "0000000000000000" {
						t.Errorf("%s = %s, want all zero", set, fields[set])
					}
				}
			})
		}
	}
}

func statusFields(lines []string) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		k, v, _ := strings.Cut(l, ":")
		m[k] = strings.TrimSpace(v)
	}
	return m
}

// TestSetuidDoesNotElevate runs a setuid-root copy of id as nobody: the
// control (rwx) shows euid 0, confined modes must not.
func TestSetuidDoesNotElevate(t *testing.T) {
	requireRoot(t)
	dir := usersDir(t, "suid-")
	idPath, err := exec.LookPath("id")
	if err != nil {
		t.Skip("no id binary")
	}
	data, err := os.ReadFile(idPath)
	if err != nil {
		t.Fatal(err)
	}
	suid := filepath.Join(dir, "id")
	if err := os.WriteFile(suid, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(suid, 0o755|os.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			r := w.run("--mode", mode, "--", suid, "-u")
			got := strings.TrimSpace(r.stdout)
			if want := map[bool]string{true: "0", false: "65534"}[mode == "rwx"]; got != want {
				t.Errorf("euid through setuid binary = %q, want %q (stderr %s)", got, want, r.stderr)
			}
		})
	}
}

// TestUserTmp: root running the program as another user (--user) gives it
// a /tmp it can use, and no warning about files it merely cannot stat.
func TestUserTmp(t *testing.T) {
	w := newWorld(t, rootUser)
	repo := gitRepo(t, w) // read-only binds under root's 0700 home
	os.Chmod(w.home, 0o700)
	r := w.run("--user", "nobody", "--workdir", "/", "--", "/bin/sh", "-c", "echo x > /tmp/t && cat /tmp/t")
	if r.code != 0 || r.stdout != "x\n" {
		t.Errorf("--user nobody: exit %d, stdout %q, stderr %q; want /tmp writable", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "replaced on the host") {
		t.Errorf("false warning about %s: %q", repo, r.stderr)
	}
}

// TestNoIDIsRefused: 4294967295 is (uid_t)-1, which setresuid and
// setresgid read as "leave it": given as --user, --group or --groups it
// would have run the program as root.
func TestNoIDIsRefused(t *testing.T) {
	w := newWorld(t, rootUser)
	for _, args := range [][]string{{"--user", "4294967295"}, {"--user", "nobody", "--group", "4294967295"}, {"--user", "nobody", "--groups", "4294967295"}} {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			r := w.run(append(append([]string{"--mode", mode}, args...), "--", "/usr/bin/id")...)
			if r.code != 125 || strings.Contains(r.stdout, "uid=") || !strings.Contains(r.stderr, "is not an id") {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want 125", mode, args, r.code, r.stdout, r.stderr)
			}
		}
	}
}

// TestRelativeWorkdir: a relative --workdir is the caller's, as every
// other relative path is: the program it names (./p) is the one in that
// directory, found and run as such, and PWD names it.
func TestRelativeWorkdir(t *testing.T) {
	w := newWorld(t, nobody)
	d := filepath.Join(w.home, "wd")
	mustMkdir(t, filepath.Join(d, "wd"))
	writeFile(t, filepath.Join(d, "p"), "#!/bin/sh\necho right PWD=$PWD\n")
	writeFile(t, filepath.Join(d, "wd", "p"), "#!/bin/sh\necho WRONG\n")
	os.Chmod(filepath.Join(d, "p"), 0o755)
	os.Chmod(filepath.Join(d, "wd", "p"), 0o755)
	chownTree(t, w.home, nobody)
	for _, mode := range []string{"sandbox", "rx", "rwx"} {
		r := w.runProgIn(w.home, "/usr/bin/env", "PWD="+w.home, bin, "--mode", mode, "--workdir", "wd", "--", "./p")
		if r.code != 0 || r.stdout != "right PWD="+d+"\n" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", mode, r.code, r.stdout, r.stderr, "right PWD="+d)
		}
	}
}

// TestUserWorkspace: root running the program as another user gives it a
// data dir that user owns (--data-dir, as the README says); the
// workspace omega-run makes in it is that user's too, so the program can
// work there. Made root's (0700), the workspace refused every write. A
// data dir of root's keeps a workspace of root's (the systemd unit's).
func TestUserWorkspace(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			for _, c := range []struct {
				owner    user
				writable bool
			}{{nobody, true}, {rootUser, false}} {
				data := filepath.Join(w.extra, c.owner.name+"-data")
				mustMkdir(t, data)
				os.Chmod(data, 0o700)
				chownTree(t, data, c.owner)
				ws := filepath.Join(data, "workspace")
				r := w.run("--mode", mode, "--user", "nobody", "--data-dir", data, "--workdir", "/", "--",
					"/bin/sh", "-c", `echo x > "$0/f" && cat "$0/f"`, ws)
				if got := r.code == 0 && r.stdout == "x\n"; got != c.writable {
					t.Errorf("data dir of %s: workspace writable %v, want %v (exit %d, stdout %q, stderr %q)",
						c.owner.name, got, c.writable, r.code, r.stdout, r.stderr)
				}
				var st syscall.Stat_t
				if err := syscall.Stat(ws, &st); err != nil || int(st.Uid) != c.owner.uid {
					t.Errorf("workspace in a data dir of %s: owner %d (%v), want %d", c.owner.name, st.Uid, err, c.owner.uid)
				}
			}
		})
	}
}

// TestBoundingSetWithoutCapLastCap: the bounding set is emptied up to the
// kernel's last capability, whatever /proc/sys/kernel/cap_last_cap says:
// here a file saying 20 is bound over it, as an unreadable one made the
// init stage assume 40 where a newer kernel has more. The C init stage
// read it and kept capabilities 21 to 40 (CapBnd 000001ffffe00000); rx,
// and the Go init stage, loop until the kernel's EINVAL. Both stages,
// root and nobody (sandbox mode's user namespace gives nobody
// CAP_SETPCAP there; in rx nobody has none to drop with).
func TestBoundingSetWithoutCapLastCap(t *testing.T) {
	for name, b := range bothStages(t) {
		for _, u := range users {
			for _, mode := range confinedModes {
				if mode == "rx" && u.uid != 0 {
					continue
				}
				t.Run(name+"/"+u.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					fake := filepath.Join(w.extra, "cap_last_cap")
					if err := os.WriteFile(fake, []byte("20\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					script := "mount --bind " + fake + " /proc/sys/kernel/cap_last_cap && grep -qx 20 /proc/sys/kernel/cap_last_cap"
					r := underRootWrapperOf(w, b, script, "--mode", mode, "--", "grep", "^CapBnd:", "/proc/self/status")
					if r.code != 0 {
						t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
					}
					if r.stdout != "CapBnd:\t0000000000000000\n" {
						t.Errorf("want an empty bounding set: %q", r.stdout)
					}
				})
			}
		}
	}
}
