//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkOutMade: a launch with --allow-write ~/src lets its program
// replace ~/src/app with a symlink to a directory outside every grant
// (here the sentinel's; ~/.config, /etc for root): the next launch given
// ~/src/app (--allow-write, or --allow-write . after a cd there) has that
// directory writable, and nothing at that launch can tell the link from
// the user's own. The first launch now names the link after the run, and
// one to nothing yet; a link inside the writable set is not named.
func TestLinkOutMade(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			src := filepath.Join(w.extra, "src")
			mustMkdir(t, filepath.Join(src, "app"))
			chownTree(t, w.extra, u)
			r := w.sh("sandbox", `cd "$X/src" && mv app .app && ln -s "$O" app && ln -s .app current && ln -s /nonexistent/x later`, "--allow-write", src)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			app := filepath.Join(src, "app")
			for _, want := range []string{"the program made " + app + " a symlink to " + w.outside + ", outside its writable set",
				"the program made " + filepath.Join(src, "later") + " a symlink to /nonexistent/x (not there yet)"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q: %q", want, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "current") {
				t.Errorf("a link inside the writable set named: %q", r.stderr)
			}
		})
	}
}
