//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestHiddenWorkdirThroughLink: a working directory reached through a
// symlink into a hidden directory ($PWD names the link) is refused like
// the hidden directory itself, in the CLI and in the init stage; the
// init stage kept it open, and the program read the key through it.
func TestHiddenWorkdirThroughLink(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			secretAt(t, w, ".ssh/id_ed25519")
			link := filepath.Join(w.home, "sshlink")
			if err := os.Symlink(".ssh", link); err != nil {
				t.Fatal(err)
			}
			w.dir = link // with $PWD naming the link, as a shell's cd sets it
			r := w.runWith([]string{"PWD=" + link}, nil, bin, "--", "cat", "id_ed25519")
			if r.code != 125 || strings.Contains(r.stdout, "SECRET") {
				t.Errorf("exit %d, stdout %q; want 125 and no key (stderr %q)", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestHiddenWorkdirOtherNames: the init stage refuses a working directory
// inside a hidden directory by its identity, whatever names the path:
// $HOME a symlink (NFS automounts, /home -> /var/home) while the working
// directory is named by its real path; --hide given through a symlink;
// a real path longer than getcwd(3) takes, reached through a short link.
func TestHiddenWorkdirOtherNames(t *testing.T) {
	for _, u := range users {
		t.Run(u.name+"/home-linked", func(t *testing.T) {
			w := newWorld(t, u)
			secretAt(t, w, ".ssh/id_ed25519")
			link := filepath.Join(filepath.Dir(w.home), "homelink")
			if err := os.Symlink(w.home, link); err != nil {
				t.Fatal(err)
			}
			w.dir = filepath.Join(w.home, ".ssh")
			r := w.runWith([]string{"HOME=" + link, "PWD=" + w.dir}, nil, bin, "--", "cat", "id_ed25519")
			if r.code != 125 || strings.Contains(r.stdout, "SECRET") {
				t.Errorf("exit %d, stdout %q; want 125 and no key (stderr %q)", r.code, r.stdout, r.stderr)
			}
		})
		t.Run(u.name+"/hide-through-link", func(t *testing.T) {
			w := newWorld(t, u)
			secretAt(t, w, "vault/f")
			if err := os.Symlink(w.home, filepath.Join(w.home, "self")); err != nil {
				t.Fatal(err)
			}
			w.dir = filepath.Join(w.home, "vault")
			r := w.run("--hide", filepath.Join(w.home, "self", "vault"), "--", "cat", "f")
			if r.code != 125 || strings.Contains(r.stdout, "SECRET") {
				t.Errorf("exit %d, stdout %q; want 125 and no secret (stderr %q)", r.code, r.stdout, r.stderr)
			}
		})
		t.Run(u.name+"/longer-than-getcwd", func(t *testing.T) {
			w := newWorld(t, u)
			link := deepSecret(t, w, 21)
			w.dir = link
			r := w.runWith([]string{"PWD=" + link}, nil, bin, "--", "cat", "key")
			if r.code != 125 || strings.Contains(r.stdout, "SECRET") {
				t.Errorf("exit %d, stdout %q; want 125 and no key (stderr %.300q)", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// deepSecret makes ~/.ssh/C1/…/Cn/key, each component 200 bytes (a real
// path past getcwd's 4096), through directory fds, owned by w's user, and
// returns a short path to its directory: two relative links in home, each
// holding half the components.
func deepSecret(t *testing.T, w *world, n int) string {
	t.Helper()
	comp := func(i int) string { return strings.Repeat(string(rune('a'+i)), 200) }
	ssh := filepath.Join(w.home, ".ssh")
	mustMkdir(t, ssh)
	os.Chown(ssh, w.u.uid, w.u.gid)
	fd, err := unix.Open(ssh, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for i := 0; err == nil && i < n; i++ {
		if err = unix.Mkdirat(fd, comp(i), 0o700); err == nil {
			var next int
			next, err = unix.Openat(fd, comp(i), unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
			unix.Close(fd)
			fd = next
			if err == nil {
				err = unix.Fchown(fd, w.u.uid, w.u.gid)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	kfd, err := unix.Openat(fd, "key", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	unix.Write(kfd, []byte("SECRET"))
	unix.Fchown(kfd, w.u.uid, w.u.gid)
	unix.Close(kfd)
	var first, second []string
	for i := 0; i < n; i++ {
		if i < n/2 {
			first = append(first, comp(i))
		} else {
			second = append(second, comp(i))
		}
	}
	half := filepath.Join(w.home, "half")
	if err := os.Symlink(filepath.Join(append([]string{".ssh"}, first...)...), half); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(w.home, "deep")
	if err := os.Symlink(filepath.Join(append([]string{"half"}, second...)...), link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestHiddenWorkdirDeeperThanWalk: a working directory more than 4096
// levels below a hidden directory (reached through short links) is still
// refused: the init stages' walk up through ".." gives up at depth 4096
// and then lets it through, and the program read the key (review 2).
func TestHiddenWorkdirDeeperThanWalk(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			ssh := filepath.Join(w.home, ".ssh")
			mustMkdir(t, ssh)
			os.Chown(ssh, w.u.uid, w.u.gid)
			fd, err := unix.Open(ssh, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
			const depth, per = 4200, 2000
			for i := 0; err == nil && i < depth; i++ {
				if err = unix.Mkdirat(fd, "d", 0o700); err == nil {
					var next int
					next, err = unix.Openat(fd, "d", unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
					unix.Close(fd)
					fd = next
					if err == nil {
						err = unix.Fchown(fd, w.u.uid, w.u.gid)
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			kfd, err := unix.Openat(fd, "key", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			unix.Write(kfd, []byte("SECRET"))
			unix.Close(kfd)
			unix.Close(fd)
			// Links of at most per levels each, chained.
			prev := ".ssh"
			for left, i := depth, 0; left > 0; i++ {
				n := min(left, per)
				link := filepath.Join(w.home, "deep"+string(rune('a'+i)))
				target := prev + strings.Repeat("/d", n)
				if err := os.Symlink(target, link); err != nil {
					t.Fatal(err)
				}
				prev, left = filepath.Base(link), left-n
				w.dir = link
			}
			r := w.runWith([]string{"PWD=" + w.dir}, nil, bin, "--", "cat", "key")
			if r.code != 125 || strings.Contains(r.stdout, "SECRET") {
				t.Errorf("exit %d, stdout %q; want 125 and no key (stderr %.300q)", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestHiddenWorkdirUnsearchableParent: a user whose working directory
// lies below a directory it may not search (sudo -u or setpriv from
// root's 0700 home, or from another user's 0750 home) is not refused: no
// hidden directory is on the way, and the program could not go up
// through that directory either. The walk up through ".." stopped there
// with EACCES and refused (125) (review 3).
func TestHiddenWorkdirUnsearchableParent(t *testing.T) {
	w := newWorld(t, nobody)
	mustMkdir(t, filepath.Join(w.home, ".ssh"))
	locked := filepath.Join(filepath.Dir(w.home), "locked")
	pub := filepath.Join(locked, "pub")
	mustMkdir(t, pub)
	os.Chmod(locked, 0o700) // root's
	os.Chmod(pub, 0o755)
	c := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin, "--", "true")
	c.Dir = pub
	c.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "PWD=" + pub}
	out, err := c.CombinedOutput()
	if err != nil {
		t.Errorf("%v; want exit 0 (output %.300q)", err, out)
	}
}
