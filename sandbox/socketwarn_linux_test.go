package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestSocketWarningsHidden: an --allow-socket inside what sandbox
// mode hides (gpg-agent's ~/.gnupg/S.gpg-agent, an ssh-agent socket in
// ~/.ssh) is not there inside, as the hidden directory is empty: said,
// not silent. A socket beside a hidden store is not.
func TestSocketWarningsHidden(t *testing.T) {
	for _, c := range []struct {
		sock, hide []string
		want       string // "" for no warning
	}{
		{[]string{"/h/.gnupg/S.gpg-agent"}, nil, "--allow-socket /h/.gnupg/S.gpg-agent: sandbox mode hides /h/.gnupg"},
		{[]string{"/h/.ssh/agent.sock"}, nil, "hides /h/.ssh"},
		{[]string{"/h/sec/a.sock"}, []string{"/h/sec"}, "hides /h/sec"},
		{[]string{"/tmp/ssh-x/agent.1"}, nil, ""},
		{[]string{"/h/.ssh-agent.sock"}, nil, ""},
	} {
		pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowSocket: c.sock, Hide: c.hide}
		got := strings.Join(socketWarnings(pol, nil, true), "\n")
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("socket %v, hide %v: %q, want %q", c.sock, c.hide, got, c.want)
		}
	}
}

// TestSocketWarningsEngine: --allow-socket of a container engine's
// socket, D-Bus or systemd's lets the program start programs outside the
// sandbox (docker run -v /:/host), as --allow-write /run/user does,
// which warns: said, not silent. An ssh-agent's socket is not.
func TestSocketWarningsEngine(t *testing.T) {
	for _, c := range []struct {
		sock string
		want string // "" for no warning
	}{
		{"/var/run/docker.sock", "--allow-socket /var/run/docker.sock: through it the program can start programs outside the sandbox"},
		{"/run/user/1000/docker.sock", "outside the sandbox"}, // rootless Docker
		{"/run/user/1000/podman/podman.sock", "outside the sandbox"},
		{"/run/containerd/containerd.sock", "outside the sandbox"},
		{"/run/user/1000/bus", "outside the sandbox"},
		{"/run/dbus/system_bus_socket", "outside the sandbox"},
		{"/run/user/1000/systemd/private", "outside the sandbox"},
		{"/run/crio/crio.sock", "outside the sandbox"},
		{"/run/buildkit/buildkitd.sock", "outside the sandbox"},
		{"/var/run/libvirt/libvirt-sock", "outside the sandbox"}, // virsh: a VM with the host's disk
		{"/run/libvirt/virtqemud-sock", "outside the sandbox"},
		{"/var/snap/lxd/common/lxd/unix.socket", "outside the sandbox"},
		{"/var/lib/incus/unix.socket", "outside the sandbox"},
		{"/tmp/ssh-x/agent.1", ""},
		{"/srv/app/bus", ""},
		{"/srv/app/unix.socket", ""},
	} {
		pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowSocket: []string{c.sock}}
		got := strings.Join(socketWarnings(pol, nil, true), "\n")
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("socket %s: %q, want %q", c.sock, got, c.want)
		}
	}
}

// TestSocketWarningsMovedStore: a store the environment moved
// (GNUPGHOME=/h/gpg) is hidden like the listed ones, so an --allow-socket
// of gpg-agent's socket there reaches nothing either: said. (An
// --allow-write inside it unhides it: envHidden skips a store above a
// writable root.)
func TestSocketWarningsMovedStore(t *testing.T) {
	pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowSocket: []string{"/h/gpg/S.gpg-agent"}}
	want := "--allow-socket /h/gpg/S.gpg-agent: sandbox mode hides /h/gpg"
	if got := strings.Join(socketWarnings(pol, []string{"/h/gpg"}, true), "\n"); !strings.Contains(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestSocketWarningsLinkHidden: SSH_AUTH_SOCK as a fixed link in
// ~/.ssh to the agent's socket (kept across tmux reattaches): the socket
// was brought in at its real path, but the variable still named the
// link, in the hidden ~/.ssh, and ssh found no agent, unexplained. Said,
// with the real path to give instead.
func TestSocketWarningsLinkHidden(t *testing.T) {
	home := t.TempDir()
	real := filepath.Join(t.TempDir(), "agent.1")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(home, ".ssh", "ssh_auth_sock")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSH_AUTH_SOCK", link)
	pol := profiles.Policy{Mode: ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"), AllowSocket: []string{link}}
	got := strings.Join(socketWarnings(pol, nil, true), "\n")
	want := "--allow-socket " + link + ": a link in " + filepath.Join(home, ".ssh")
	if !strings.Contains(got, want) || !strings.Contains(got, "--allow-socket "+real+" --setenv SSH_AUTH_SOCK="+real) {
		t.Errorf("%q, want %q and the real path to give", got, want)
	}
}

// TestSocketWarningsLinkInTmp: the same link kept in the host's /tmp
// (SSH_AUTH_SOCK=/tmp/ssh-agent-$USER) is not in the sandbox's own /tmp,
// where only the socket is brought in: said, with the real path.
func TestSocketWarningsLinkInTmp(t *testing.T) {
	real := filepath.Join(t.TempDir(), "agent.1")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link, err := os.CreateTemp("/tmp", "omega-test-agent-link-")
	if err != nil {
		t.Fatal(err)
	}
	link.Close()
	os.Remove(link.Name())
	if err := os.Symlink(real, link.Name()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(link.Name()) })
	t.Setenv("SSH_AUTH_SOCK", link.Name())
	pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowSocket: []string{link.Name()}}
	got := strings.Join(socketWarnings(pol, nil, true), "\n")
	if !strings.Contains(got, "--allow-socket "+link.Name()+": a link in the host's /tmp") || !strings.Contains(got, "--setenv SSH_AUTH_SOCK="+real) {
		t.Errorf("%q, want the link named and the real path to give", got)
	}
	// Where the sandbox's /tmp is the host's (a fallback), the link is
	// there; its socket, in the shared /tmp, is masked.
	if got := strings.Join(socketWarnings(pol, nil, false), "\n"); strings.Contains(got, "host's /tmp") || !strings.Contains(got, "give --allow-socket "+real) {
		t.Errorf("no private /tmp: %q, want the link's socket said masked", got)
	}
	// The socket itself in /tmp is brought in: nothing to say.
	pol.AllowSocket = []string{real}
	if got := socketWarnings(pol, nil, true); len(got) != 0 {
		t.Errorf("the socket itself: %q", got)
	}
}

// TestSocketWarningsLinkInWritableDir: a link in a directory of the
// host's /tmp that the launch brings in (--allow-write /tmp/DIR) is there
// inside, and the program reaches the socket through it: the launch said
// it would not.
func TestSocketWarningsLinkInWritableDir(t *testing.T) {
	real := filepath.Join(t.TempDir(), "agent.1")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("/tmp", "omega-test-agent-dir-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	link := filepath.Join(dir, "agent")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowSocket: []string{link},
		Writable: []string{"/h/.omega", "/tmp", dir}}
	if got := socketWarnings(pol, nil, true); len(got) != 0 {
		t.Errorf("link in --allow-write %s: %q, want nothing", dir, got)
	}
}

// TestSocketWarningsLinkToMasked: a link anywhere (home, a /tmp directory
// brought in) to a socket the sandbox masks (not in its own /run or /tmp,
// nor the writable set) leads to an empty file inside: --allow-socket
// names the link, and masks go by real path. Said, with the real path.
func TestSocketWarningsLinkToMasked(t *testing.T) {
	real := filepath.Join(varTmpDir(t), "agent.1")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("/tmp", "omega-test-agent-dir-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := varTmpDir(t)
	for _, link := range []string{filepath.Join(home, "agent"), filepath.Join(dir, "agent")} {
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		pol := profiles.Policy{Mode: ModeSandbox, Home: home, DataDir: home + "/.omega", AllowSocket: []string{link},
			Writable: []string{home + "/.omega", "/tmp", dir}}
		got := strings.Join(socketWarnings(pol, nil, true), "\n")
		if !strings.Contains(got, "--allow-socket "+link+": a link in ") || !strings.Contains(got, "give --allow-socket "+real) {
			t.Errorf("link %s: %q, want the real path to give", link, got)
		}
		// A dangling link names no socket to give instead.
		pol.AllowSocket = []string{link + "-dangling"}
		if err := os.Symlink(real+"-gone", link+"-dangling"); err != nil {
			t.Fatal(err)
		}
		if got := socketWarnings(pol, nil, true); len(got) != 0 && !strings.Contains(got[0], "host's /tmp") {
			t.Errorf("dangling link %s: %q, want nothing", link, got)
		}
		pol.AllowSocket = []string{link}
		// Its socket in the writable set is not masked.
		pol.Writable = append(pol.Writable, filepath.Dir(real))
		if got := socketWarnings(pol, nil, true); len(got) != 0 {
			t.Errorf("link %s, socket writable: %q, want nothing", link, got)
		}
	}
}

// varTmpDir is a new directory outside /tmp, which the sandbox has its own.
func varTmpDir(t *testing.T) string {
	d, err := os.MkdirTemp("/var/tmp", "omega-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
