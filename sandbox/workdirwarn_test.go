package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestWorkdirWarning(t *testing.T) {
	real := func(p string) string {
		return strings.Replace(strings.Replace(p, "/link", "/h/real", 1), "/lnk2", "/h/p", 1)
	}
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: "/h", DataDir: "/h/.omega",
		Writable: []string{"/h/.omega", "/tmp", "/h/.claude", "/link", "/h/p"}, ReadOnly: []string{"/h/p/ro"}}
	cases := []struct {
		name, wd string
		mode     profiles.Mode
		given    bool
		want     string // in the warning; "" for none
	}{
		{name: "a project outside the writable set", wd: "/h/proj", want: "add --allow-write . to let it"},
		{name: "given by --workdir", wd: "/h/my proj", given: true, want: "add --allow-write '/h/my proj' to let it"},
		{name: "rx", wd: "/srv/x", mode: profiles.ModeRX, want: "/srv/x is outside the writable set"},
		{name: "an --allow-write root", wd: "/h/p/src"},
		{name: "the workspace", wd: "/h/.omega/workspace"},
		{name: "a root given through a symlink", wd: "/h/real/sub"},
		{name: "the working directory through a symlink into a root", wd: "/lnk2/src"},
		{name: "--read-only inside a root", wd: "/h/p/ro/x", want: "/h/p/ro/x is outside"},
		{name: "--read-only is sandbox mode's", wd: "/h/p/ro/x", mode: profiles.ModeRX},
		{name: "the host's /tmp in sandbox mode", wd: "/tmp/x", want: "/tmp/x is outside"},
		{name: "the host's /tmp in rx", wd: "/tmp/x", mode: profiles.ModeRX},
		{name: "/tmp itself in sandbox mode: the sandbox's own", wd: "/tmp"},
		{name: "/dev/shm itself in sandbox mode: the sandbox's own", wd: "/dev/shm"},
		{name: "below /dev/shm in sandbox mode", wd: "/dev/shm/x"},
		{name: "/dev/shm in rx: the host's, writable", wd: "/dev/shm", mode: profiles.ModeRX},
		{name: "/run in sandbox mode: --allow-write /run makes it writable", wd: "/run", want: "add --allow-write ."},
		{name: "rwx", wd: "/h/proj", mode: profiles.ModeRWX},
		{name: "home: the fix would open it", wd: "/h"},
		{name: "/proc: no grant makes sense there", wd: "/proc"},
		{name: "below /proc, in rx", wd: "/proc/self/fd", mode: profiles.ModeRX},
		{name: "/sys", wd: "/sys/kernel"},
		{name: "/dev in rx", wd: "/dev", mode: profiles.ModeRX},
		{name: "/dev in sandbox mode", wd: "/dev/pts"},
		{name: "/procfoo is no kernel tree", wd: "/procfoo", want: "add --allow-write ."},
		{name: "above home", wd: "/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pol
			if c.mode != "" {
				p.Mode = c.mode
			}
			w := workdirWarning(p, c.wd, c.given, real)
			if (w != "") != (c.want != "") || !strings.Contains(w, c.want) {
				t.Errorf("warning %q, want %q", w, c.want)
			}
		})
	}
}
