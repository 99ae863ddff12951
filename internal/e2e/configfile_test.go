//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConfigFileReadOnly: the config file decides how later launches run,
// and the data dir that holds it is writable. In sandbox mode a program
// can neither rewrite it (truncate, append, replace by rename, delete)
// nor create it where there was none, nor change a --config file that
// lies in a writable root; judged from outside by the file's content and
// by the next launch's mode. rwx is the control.
func TestConfigFileReadOnly(t *testing.T) {
	const evil = "[sandbox]\nmode = \"rwx\"\n"
	attack := func(path string) string {
		return `printf '` + evil + `' > "$1"; printf '` + evil + `' >> "$1"; ` +
			`printf '` + evil + `' > "$HOME/.omega/workspace/evil"; mv -f "$HOME/.omega/workspace/evil" "$1"; ` +
			`rm -f "$1"; ln -sf /etc/hostname "$1"; exit 0`
	}
	for _, u := range users {
		for _, c := range []struct {
			name, mode string
			existing   bool
			explicit   bool
		}{
			{"absent", "sandbox", false, false},
			{"existing", "sandbox", true, false},
			{"explicit", "sandbox", true, true},
			{"absent", "rwx", false, false},
		} {
			t.Run(u.name+"/"+c.mode+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				path := filepath.Join(w.dataDir, "config.toml")
				var flags []string
				if c.explicit {
					path = filepath.Join(w.dataDir, "workspace", "mine.toml")
					flags = []string{"--config", path}
				}
				const original = "[sandbox]\nmode = \"sandbox\"\n"
				if c.existing {
					writeFile(t, path, original)
					chownTree(t, w.dataDir, u)
				}
				args := append(append([]string{"--mode", c.mode}, flags...), "--", "/bin/sh", "-c", attack(path), "sh", path)
				if r := w.run(args...); r.code != 0 {
					t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
				}
				want := "" // sandbox mode creates an empty one to keep it read-only
				if c.existing {
					want = original
				}
				b, err := os.ReadFile(path)
				st, lerr := os.Lstat(path)
				changed := err != nil || lerr != nil || string(b) != want || !st.Mode().IsRegular()
				if c.mode == "rwx" {
					if !changed {
						t.Fatalf("control: rwx left %s as %q", path, b)
					}
					return
				}
				if changed {
					t.Errorf("%s is now %q (%v)", path, b, err)
				}
				next := w.run(append(flags, "--", "/bin/sh", "-c", `echo "$OMEGA_SANDBOX"`)...)
				if next.stdout != "sandbox\n" {
					t.Errorf("the next launch runs as %q (stderr %q), want sandbox", next.stdout, next.stderr)
				}
			})
		}
	}
}
