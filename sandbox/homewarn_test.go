package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestHomeWritableWarning(t *testing.T) {
	links := map[string]string{"/link/home": "/var/home/u", "/h": "/h"}
	real := func(p string) string {
		if r, ok := links[p]; ok {
			return r
		}
		return p
	}
	cases := []struct {
		mode     profiles.Mode
		home     string
		writable []string
		warn     bool
	}{
		{profiles.ModeSandbox, "/h", []string{"/h/.omega", "/tmp", "/h/.claude"}, false},
		{profiles.ModeSandbox, "/h", []string{"/h/project"}, false},
		{profiles.ModeSandbox, "/h", []string{"/h"}, true},
		{profiles.ModeRX, "/h", []string{"/h/"}, true},
		{profiles.ModeSandbox, "/h", []string{"/"}, true},
		{profiles.ModeSandbox, "/h", []string{"/hx"}, false},              // a sibling, not a parent
		{profiles.ModeRWX, "/h", []string{"/h"}, false},                   // grants everything anyway
		{profiles.ModeSandbox, "/link/home", []string{"/var/home"}, true}, // home through a symlink
		{profiles.ModeRX, "/tmp/h", []string{"/tmp"}, true},               // the host's /tmp
		{profiles.ModeSandbox, "/tmp/h", []string{"/tmp"}, false},         // the sandbox's own /tmp
	}
	for _, c := range cases {
		pol := profiles.Policy{Mode: c.mode, Home: c.home, Writable: c.writable}
		w := homeWritableWarning(pol, real)
		if (w != "") != c.warn || c.warn && !strings.Contains(w, "~/.bashrc") {
			t.Errorf("%s home %s writable %v: %q, want a warning: %v", c.mode, c.home, c.writable, w, c.warn)
		}
	}
}

func TestOwnDirWarnings(t *testing.T) {
	for _, c := range []struct {
		allow []string
		want  []string // substrings, one per warning
	}{
		{nil, nil},
		{[]string{"/tmp/share"}, nil},
		{[]string{"/srv", "/tmp"}, []string{"/h/.omega/tmp"}},
		{[]string{"/run/app", "/running"}, nil}, // brought back into the sandbox's /run
		{[]string{"/run"}, []string{"--allow-write /run: in sandbox mode /run is an empty tmpfs"}},
		{[]string{"/run/user/1000"}, []string{"the user's service sockets"}},
		{[]string{"/dev/shm/x"}, []string{"/dev/shm is the sandbox's own"}},
		{[]string{"/dev/shm"}, []string{"/dev/shm is the sandbox's own"}}, // --allow-write . started there
		{[]string{"/dev/shmx"}, nil},
		{[]string{"/dev"}, []string{"--allow-write /dev: in sandbox mode /dev is the sandbox's own"}}, // . started there
		{[]string{"/dev/pts"}, []string{"/dev is the sandbox's own"}},
		{[]string{"/dev/null", "/devx"}, nil}, // a device node is bound in; not /dev
	} {
		pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowWrite: c.allow}
		got := ownDirWarnings(pol, nil)
		if len(got) != len(c.want) {
			t.Errorf("%v: %q", c.allow, got)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], c.want[i]) {
				t.Errorf("%v: %q, want %q in it", c.allow, got[i], c.want[i])
			}
		}
	}
}

// TestPathWritableWarning: a PATH directory in the writable set is named
// (the program could plant commands the user's shell runs later), but
// not the sandbox's own /tmp, nor anything in rwx, nor when the whole
// home is writable (that warning says more).
func TestPathWritableWarning(t *testing.T) {
	real := func(p string) string {
		if p == "/usr/local/link" {
			return "/h/.omega/bin"
		}
		return p
	}
	writable := []string{"/h/.omega", "/tmp", "/h/.claude"}
	cases := []struct {
		mode     profiles.Mode
		path     string
		writable []string
		want     string // "" for no warning
	}{
		{profiles.ModeSandbox, "/usr/bin:/bin", writable, ""},
		{profiles.ModeSandbox, "/usr/bin:/h/.omega/bin:/bin", writable, "/h/.omega/bin"},
		{profiles.ModeRX, "/h/.claude/local/bin", writable, "/h/.claude/local/bin"},
		{profiles.ModeSandbox, "/usr/local/link", writable, "/usr/local/link"}, // through a symlink
		{profiles.ModeSandbox, "/tmp/bin", writable, ""},                       // the sandbox's own /tmp
		{profiles.ModeRX, "/tmp/bin", writable, "/tmp/bin"},                    // the host's
		{profiles.ModeSandbox, "/usr/bin:.", writable, "."},                    // relative: where the launch runs, writable
		{profiles.ModeSandbox, "/usr/bin::/bin", writable, "."},                // the empty entry is "."
		{profiles.ModeSandbox, "bin", []string{"/h/.claude"}, ""},              // not writable there
		{profiles.ModeRWX, "/h/.omega/bin", writable, ""},
		{profiles.ModeSandbox, "/h/bin", []string{"/h"}, ""}, // the home warning covers it
	}
	for _, c := range cases {
		pol := profiles.Policy{Mode: c.mode, Home: "/h", Writable: c.writable}
		w := pathWritableWarning(pol, c.path, "/h/.omega/workspace/p", real)
		if (w == "") != (c.want == "") || c.want != "" && !strings.Contains(w, "PATH directory "+c.want+" ") {
			t.Errorf("%s PATH %q writable %v: %q, want one naming %q", c.mode, c.path, c.writable, w, c.want)
		}
	}
}

// TestOwnDirWarningsHidden: an --allow-write inside what sandbox mode
// hides (a credential store, a --hide path) reaches nothing there, as the
// hidden directory is empty and read-only: said, not silent. A grant
// that merely holds a hidden store (the project, home) is not.
func TestOwnDirWarningsHidden(t *testing.T) {
	for _, c := range []struct {
		allow, hide []string
		want        string // "" for no warning
	}{
		{[]string{"/h/.ssh"}, nil, "--allow-write /h/.ssh: sandbox mode hides /h/.ssh"},
		{[]string{"/h/.config/gh/x"}, nil, "hides /h/.config/gh"},
		{[]string{"/h/notes/sub"}, []string{"/h/notes"}, "hides /h/notes"},
		{[]string{"/h/notes"}, []string{"/h/notes/secret"}, ""},
		{[]string{"/h/proj"}, nil, ""},
		{[]string{"/h/.sshkeys"}, nil, ""},
	} {
		pol := profiles.Policy{Mode: ModeSandbox, Home: "/h", DataDir: "/h/.omega", AllowWrite: c.allow, Hide: c.hide}
		got := strings.Join(ownDirWarnings(pol, nil), "\n")
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("allow %v, hide %v: %q, want %q", c.allow, c.hide, got, c.want)
		}
	}
}
