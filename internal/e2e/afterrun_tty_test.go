//go:build linux

package e2e

import (
	"os"
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
