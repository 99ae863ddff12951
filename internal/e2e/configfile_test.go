//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestConfigFileEdges: what the read-only bind cannot pin is refused or
// left alone, and the config read is the config protected. A symlinked
// data-dir config (the program could replace the link) is a one-line 125;
// a --config under the host's /tmp, which the program does not see, works;
// a config piped in on stdin reaches the launcher whole (the early start's
// look at the file must not read a pipe); a relative --config with
// --workdir is read and protected at the same place.
func TestConfigFileEdges(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			cfg := filepath.Join(w.dataDir, "config.toml")
			target := filepath.Join(w.home, "dotfiles.toml")
			writeFile(t, target, "[sandbox]\nmode = \"sandbox\"\n")
			for _, link := range []string{target, filepath.Join(w.home, "missing.toml")} {
				os.Remove(cfg)
				if err := os.Symlink(link, cfg); err != nil {
					t.Fatal(err)
				}
				r := w.run("--", "true")
				if r.code != 125 || !strings.Contains(r.stderr, "is a symlink") || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("symlink to %s: exit %d, stderr %q; want 125 and one line", link, r.code, r.stderr)
				}
			}
			os.Remove(cfg)

			tmpCfg := filepath.Join(os.TempDir(), "omega-e2e-"+u.name+".toml")
			writeFile(t, tmpCfg, "[sandbox]\nmode = \"sandbox\"\n")
			defer os.Remove(tmpCfg)
			if r := w.run("--config", tmpCfg, "--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" {
				t.Errorf("--config under /tmp: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}

			r := w.runProg("/bin/sh", "-c", `printf '[sandbox]\nmode = "rx"\n' | "$0" --config /dev/stdin -- /bin/sh -c 'echo "$OMEGA_SANDBOX"'`, bin)
			if r.stdout != "rx\n" {
				t.Errorf("--config /dev/stdin (a pipe): the program ran as %q (stderr %q), want rx", r.stdout, r.stderr)
			}

			rel := filepath.Join(w.dataDir, "workspace", "rel.toml")
			writeFile(t, rel, "[sandbox]\nmode = \"sandbox\"\n")
			chownTree(t, w.dataDir, u)
			args := []string{"--workdir", "workspace", "--config", "rel.toml", "--"}
			w.runIn(w.dataDir, append(args, "/bin/sh", "-c", `printf '[sandbox]\nmode = "rwx"\n' > rel.toml; exit 0`)...)
			if b, _ := os.ReadFile(rel); !strings.Contains(string(b), `"sandbox"`) {
				t.Errorf("relative --config with --workdir: %s is now %q", rel, b)
			}
			if r := w.runIn(w.dataDir, append(args, "/bin/sh", "-c", `echo "$OMEGA_SANDBOX"`)...); r.stdout != "sandbox\n" {
				t.Errorf("relative --config with --workdir: the next launch runs as %q (stderr %q)", r.stdout, r.stderr)
			}
		})
	}
}

// TestReadOnlyBindReplacedOnHost: a host process that replaces a
// read-only-bound file by rename while the sandbox runs detaches the bind
// (the kernel allows it from another mount namespace), and the program may
// then write the new file. omega-run cannot prevent that; PID 1 tells, at
// the end of the run, naming the file. The control replaces nothing.
func TestReadOnlyBindReplacedOnHost(t *testing.T) {
	for _, replace := range []bool{true, false} {
		w := newWorld(t, nobody)
		cfg := filepath.Join(w.dataDir, "config.toml")
		writeFile(t, cfg, "[sandbox]\n")
		chownTree(t, w.dataDir, nobody)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		c := w.cmd(ctx, "--", "/bin/sh", "-c", "echo ready; read line")
		stdin, _ := c.StdinPipe()
		stdout, _ := c.StdoutPipe()
		var errb bytes.Buffer
		c.Stderr = &errb
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
			t.Fatalf("the program said %q", line)
		}
		if replace { // as an editor saves: a new file renamed over the old
			writeFile(t, cfg+".new", "[sandbox]\nnet = \"none\"\n")
			if err := os.Rename(cfg+".new", cfg); err != nil {
				t.Fatal(err)
			}
		}
		stdin.Close()
		c.Wait()
		cancel()
		warned := strings.Contains(errb.String(), cfg+" was replaced on the host")
		if warned != replace {
			t.Errorf("replaced %v: stderr %q", replace, errb.String())
		}
	}
}

// TestSeccompProfileReadOnly: a seccomp profile file in a writable root
// decides the next launch's filter as much as the config file does. In
// sandbox mode the program cannot rewrite, replace or delete it, whether
// the flag or the config file names it; judged from outside by the file's
// content and by the next launch still refusing what the profile denies.
// rx is the control (Landlock cannot exempt one file below a writable
// root; README says so).
func TestSeccompProfileReadOnly(t *testing.T) {
	const profile = `{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_ERRNO"}]}`
	const attack = `printf '{"defaultAction":"SCMP_ACT_ALLOW"}' > "$1"; ` +
		`printf '{"defaultAction":"SCMP_ACT_ALLOW"}' > "$HOME/.omega/workspace/x"; mv -f "$HOME/.omega/workspace/x" "$1"; rm -f "$1"; exit 0`
	for _, u := range users {
		for _, c := range []struct{ name, mode, via string }{
			{"flag", "sandbox", "flag"},
			{"config", "sandbox", "config"},
			// Read from the caller's directory, held after the launcher
			// has moved to --workdir: the same file.
			{"relative with --workdir", "sandbox", "relative"},
			{"flag", "rx", "flag"},
		} {
			t.Run(u.name+"/"+c.mode+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				path := filepath.Join(w.dataDir, "workspace", "profile.json")
				writeFile(t, path, profile)
				var flags []string
				switch c.via {
				case "flag":
					flags = []string{"--seccomp", path}
				case "relative":
					flags = []string{"--seccomp", "profile.json", "--workdir", w.dataDir}
				default:
					writeFile(t, filepath.Join(w.dataDir, "config.toml"), "[sandbox]\nseccomp = \""+path+"\"\n")
				}
				chownTree(t, w.dataDir, u)
				args := append(append([]string{"--mode", c.mode}, flags...), "--", "/bin/sh", "-c", attack, "sh", path)
				if r := w.runIn(filepath.Dir(path), args...); r.code != 0 {
					t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
				}
				b, err := os.ReadFile(path)
				changed := err != nil || string(b) != profile
				if c.mode == "rx" {
					if !changed {
						t.Fatalf("control: rx left %s as it was", path)
					}
					return
				}
				if changed {
					t.Errorf("%s is now %q (%v)", path, b, err)
				}
				next := w.runIn(filepath.Dir(path), append(append([]string{"--mode", c.mode}, flags...), "--", "/bin/mkdir", filepath.Join(w.dataDir, "workspace", "d"))...)
				if next.code == 0 {
					t.Errorf("the next launch's profile no longer refuses mkdir (stderr %q)", next.stderr)
				}
			})
		}
	}
}
