package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// socketWarnings are said when an --allow-socket does not do what it
// says, silently, or does more than it seems to: a socket in a hidden
// store (moved: the stores the environment moved) is not there inside,
// nor is a link to a socket in such a store or in the host's /run or,
// with privateTmp, /tmp; a container engine's socket hands the program
// the host.
func socketWarnings(pol profiles.Policy, moved []string, privateTmp bool) []string {
	var out []string
	for _, s := range pol.AllowSocket {
		// A socket in a hidden store (gpg-agent's in ~/.gnupg, an
		// agent's in ~/.ssh) is not there inside: the mask is empty.
		c := realPath(filepath.Clean(s))
		if h := hiddenHolder(pol, c, moved); h != "" {
			out = append(out, "--allow-socket "+s+": sandbox mode hides "+h+" (empty and read-only inside), so the socket "+
				"is not there: have its server listen outside the hidden store (ssh-agent -a PATH)")
		} else if where := lostLink(pol, s, moved, privateTmp); where != "" {
			// Only the socket is brought in, at its real path.
			out = append(out, "--allow-socket "+s+": a link in "+where+", to "+c+
				", which the program reaches by that path only: give "+realSocketFlags(s, c))
		} else if startsPrograms(c) {
			out = append(out, "--allow-socket "+s+": through it the program can start programs outside the sandbox, "+
				"unconfined (docker run -v /:/host, systemd-run): allow it only for a program you would run unconfined")
		}
	}
	return out
}

// lostLink says where the link s to a socket lies that the
// program does not see: a hidden store, or the host's /run or /tmp
// (where the sandbox has a private one), which the sandbox replaces
// with its own; "" if s is no such link.
func lostLink(pol profiles.Policy, s string, moved []string, privateTmp bool) string {
	l := linkPath(s)
	if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	if h := hiddenHolder(pol, l, moved); h != "" {
		return h + ", which sandbox mode hides (empty inside)"
	}
	for _, d := range []string{"/tmp", "/run", "/var/run"} {
		if profiles.Within(l, d) && (d != "/tmp" || privateTmp) && !broughtIn(pol, l, d) {
			return "the host's " + d + ", which the sandbox replaces with its own"
		}
	}
	if masked(pol, realPath(l), privateTmp) {
		return filepath.Dir(l) // the link is there, its socket masked
	}
	return ""
}

// masked says whether the sandbox masks a live socket at the real path c
// (as hostSockets does): outside its own /run and /tmp, outside the
// writable set, and not named by that path in --allow-socket.
func masked(pol profiles.Policy, c string, privateTmp bool) bool {
	if profiles.Within(c, "/run") || (privateTmp && profiles.Within(c, "/tmp")) || slices.Contains(pol.AllowSocket, c) {
		return false
	}
	return !slices.ContainsFunc(pol.Writable, func(w string) bool { return profiles.Within(c, w) && (privateTmp || w != "/tmp") })
}

// broughtIn says whether the link l in the host's d lies in a writable
// root below d (--allow-write /tmp/DIR), which the sandbox brings in,
// link and all (its socket may still be masked).
func broughtIn(pol profiles.Policy, l, d string) bool {
	return slices.ContainsFunc(pol.Writable, func(w string) bool {
		return w != d && profiles.Within(w, d) && profiles.Within(l, w)
	})
}

// linkPath is p with the directories above it resolved, not p itself:
// where a link named p lies.
func linkPath(p string) string {
	p = filepath.Clean(p)
	return filepath.Join(realPath(filepath.Dir(p)), filepath.Base(p))
}

// realSocketFlags are the flags that bring the socket named s, at its
// real path c, in under that path, and point the variable that named it
// (SSH_AUTH_SOCK, kept as it was) there.
func realSocketFlags(s, c string) string {
	flags := "--allow-socket " + profiles.ShellWord(c)
	for _, k := range socketEnv {
		if v := os.Getenv(k); v != "" && strings.Contains(v, s) {
			flags += " --setenv " + k + "=" + profiles.ShellWord(strings.ReplaceAll(v, s, c))
		}
	}
	return flags
}

// startsPrograms says whether the socket at the real path c is one that
// runs what its clients ask on the host: a container engine's, a VM
// manager's (libvirt, LXD, Incus), D-Bus's or systemd's.
func startsPrograms(c string) bool {
	switch base := filepath.Base(c); {
	case base == "docker.sock", base == "podman.sock", base == "containerd.sock", base == "crio.sock",
		base == "buildkitd.sock", base == "libvirt-sock", base == "virtqemud-sock", base == "system_bus_socket":
		return true
	case base == "unix.socket":
		d := filepath.Base(filepath.Dir(c))
		return d == "lxd" || d == "incus"
	case base == "bus", base == "private" && filepath.Base(filepath.Dir(c)) == "systemd":
		return profiles.Within(c, "/run") || profiles.Within(c, "/var/run")
	}
	return false
}
