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
		want   string // "" for no error
	}{
		{"caller's own", ids{1000, 1000, 1000, 1000}, false, ""},
		{"root", ids{0, 0, 0, 0}, false, ""},
		{"setuid", ids{1000, 0, 1000, 1000}, true, "effective uid 0 for uid 1000"},
		{"setgid", ids{1000, 1000, 1000, 0}, true, "effective gid 0 for gid 1000"},
		{"ids switched by a parent", ids{1000, 0, 1000, 1000}, false, "effective uid 0"},
		{"file capabilities", ids{1000, 1000, 1000, 1000}, true, "secure-exec mode"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := check(c.id, c.secure, func() string { return "/usr/local/bin/omega-run" })
			if c.want == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			undo := "chmod u-s,g-s /usr/local/bin/omega-run"
			switch {
			case !c.secure:
				undo = "real and effective ids alike"
			case c.id.uid == c.id.euid && c.id.gid == c.id.egid:
				undo = "setcap -r /usr/local/bin/omega-run"
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
