//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAfterRunWarningsVisible: the warnings after the run (what the
// program made that runs later) are the only defence some threat-model
// rows have, and the program writes to the same terminal first: left in
// conceal mode (SGR 8) or on the line-drawing character set (SO after
// ESC ) 0), it made them invisible or unreadable. The first such line
// resets what text looks like (SI, ESC ( B, SGR 0) before it.
func TestAfterRunWarningsVisible(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			proj := filepath.Join(w.dataDir, "workspace", "proj")
			mustMkdir(t, proj)
			chownTree(t, w.home, u)
			out, code := onPty(t, w, "", "--workdir", proj, "--", "/bin/sh", "-c",
				`printf 'bye\033)0\016\033[8m' && echo x > .envrc`)
			if code != 0 {
				t.Fatalf("exit %d, output %q", code, out)
			}
			i, j := strings.Index(out, "bye"), strings.Index(out, "the program made")
			if i < 0 || j < i {
				t.Fatalf("output %q: want the program's, then the warning", out)
			}
			if between := out[i:j]; !strings.Contains(between, "\x0f\x1b(B\x1b[0m") {
				t.Errorf("nothing resets the terminal's text before the warning: %q", between)
			}
		})
	}
}

// TestAfterRunWarningsOnScreen: a program that leaves the terminal with
// a scroll region of two lines (DECSTBM), without autowrap (DECAWM) or
// with black as the default colour of both text and background (OSC 10,
// 11) had the warnings after the run scroll away within those two lines,
// each cut at the right edge, or invisible, in a real terminal (tmux,
// whose screen and colours are read back). All are undone before the
// first (termsafe.TextReset).
func TestAfterRunWarningsOnScreen(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux to be the terminal")
	}
	for _, u := range users {
		for _, c := range []struct{ name, seq string }{
			{"scroll-region", `\033[3;4r\033[?6h`}, {"no-autowrap", `\033[?7l`}, {"both", `\033[3;4r\033[?6h\033[?7l`},
			{"colours", `\033]10;#000000\007\033]11;#000000\007`},
		} {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				proj := filepath.Join(w.dataDir, "workspace", "proj")
				mustMkdir(t, proj)
				chownTree(t, w.home, u)
				prog := fmt.Sprintf(`printf 'l1\nl2\nbye%s'; echo x > .envrc; echo '{}' > .mcp.json`, c.seq)
				screen, colours := onTmux(t, w, tmux, bin, "--workdir", proj, "--", "/bin/sh", "-c", prog)
				if fg, bg, _ := strings.Cut(colours, " "); fg == bg && fg != "default" {
					t.Fatalf("the warnings are written in %s on %s: unreadable", fg, bg)
				}
				for _, f := range []string{".envrc", ".mcp.json"} {
					if !strings.Contains(screen, "omega-run: warning: the program made "+filepath.Join(proj, f)+": ") ||
						strings.Count(screen, "(check it before opening the project)") != 2 {
						t.Fatalf("the screen does not show both warnings whole (%s):\n%s", f, screen)
					}
				}
			})
		}
	}
}

// onTmux runs argv as w's user in a tmux pane of 100 columns and 12 rows
// and returns the screen once it has exited, lines that wrapped joined
// (not the history: what a region scrolled away is out of sight), and the
// pane's default colours then, "FG BG" (OSC 10 and 11 set them).
func onTmux(t *testing.T, w *world, tmux string, argv ...string) (string, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "tm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	chownTree(t, dir, w.u)
	sock := filepath.Join(dir, "s")
	run := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c := w.cmdOf(ctx, tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = append(c.Env, "SHELL=/bin/sh", "TERM=xterm")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v: %s", args, err, out)
		}
		return string(out)
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shQuote(a)
	}
	// remain-on-exit set first: a pane that ends at once stays to be read.
	run("start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
		"new-session", "-d", "-x", "100", "-y", "12", "sh", "-c", "exec "+strings.Join(quoted, " "))
	defer run("kill-server")
	for i := 0; strings.TrimSpace(run("display", "-p", "#{pane_dead}")) != "1"; i++ {
		if i == 200 {
			t.Fatal("the pane did not exit in 20 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return run("capture-pane", "-p", "-J"), strings.TrimSpace(run("display", "-p", "#{pane_fg} #{pane_bg}"))
}

// TestReplacedBindWarningVisible: PID 1's warning that a read-only bind
// was lifted (a host editor saved the config file) comes after the
// program's last output too, and is reset before in the same way.
func TestReplacedBindWarningVisible(t *testing.T) {
	w := newWorld(t, nobody)
	cfg := filepath.Join(w.dataDir, "config.toml")
	writeFile(t, cfg, "[sandbox]\n")
	chownTree(t, w.dataDir, nobody)
	go func() {
		time.Sleep(time.Second)
		writeFile(t, cfg+".new", "[sandbox]\nnet = \"host\"\n")
		os.Rename(cfg+".new", cfg)
	}()
	out, code := onPty(t, w, "", "--", "/bin/sh", "-c",
		`printf 'bye\033[8m'; until grep -q net "$0"; do sleep 0.05; done`, cfg)
	i, j := strings.Index(out, "bye"), strings.Index(out, "was replaced on the host")
	if code != 0 || i < 0 || j < i {
		t.Fatalf("exit %d, output %q: want the program's, then the warning", code, out)
	}
	if between := out[i:j]; !strings.Contains(between, "\x0f\x1b(B\x1b[0m") {
		t.Errorf("nothing resets the terminal's text before the warning: %q", between)
	}
}
