package secureexec

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name   string
		id     ids
		secure bool
		setid  bool   // the file's setuid or setgid bit
		want   string // "" for no error
	}{
		{"caller's own", ids{1000, 1000, 1000, 1000}, false, false, ""},
		{"root", ids{0, 0, 0, 0}, false, false, ""},
		{"setuid", ids{1000, 0, 1000, 1000}, true, true, "effective uid 0 for uid 1000"},
		{"setgid", ids{1000, 1000, 1000, 0}, true, true, "effective gid 0 for gid 1000"},
		// The kernel sets AT_SECURE for these too (setpriv --euid).
		{"ids switched by a parent", ids{1000, 0, 1000, 1000}, true, false, "effective uid 0"},
		{"egid switched by a parent", ids{0, 0, 0, 65534}, true, false, "effective gid 65534"},
		{"file capabilities", ids{1000, 1000, 1000, 1000}, true, false, "secure-exec mode"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := check(c.id, c.secure, func() binary { return binary{"/usr/local/bin/omega-run", c.setid} })
			if c.want == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			undo := "chmod u-s,g-s /usr/local/bin/omega-run"
			switch {
			case c.id.uid == c.id.euid && c.id.gid == c.id.egid:
				undo = "setcap -r /usr/local/bin/omega-run"
			case !c.setid:
				undo = "real and effective ids alike"
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), undo) {
				t.Fatalf("got %v, want it to say %q and %q", err, c.want, undo)
			}
		})
	}
}

// TestThisProcess: the test binary runs with its caller's privileges.
func TestThisProcess(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}
