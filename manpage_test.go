//go:build !urfave_cli_no_docs

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestManPage(t *testing.T) {
	page, err := manPage(setUpApp(t))
	if err != nil {
		t.Fatal(err)
	}
	// <data-dir> is not eaten as a markdown tag; the variables are listed.
	for _, want := range []string{".TH omega-run 1", "allow-write", "fail-closed", "explain", "EXIT STATUS",
		"(default: <data-dir>/config.toml)", ".SH ENVIRONMENT", "OMEGA_RUN_CONFIG"} {
		if !strings.Contains(page, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	for _, hidden := range []string{"completion", "print the man page"} {
		if strings.Contains(page, hidden) {
			t.Errorf("man page shows the hidden %q", hidden)
		}
	}
	if man, err := exec.LookPath("man"); err == nil {
		path := filepath.Join(t.TempDir(), "omega-run.1")
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(man, "--warnings", "-l", path)
		cmd.Env = append(os.Environ(), "MANPAGER=cat", "MANWIDTH=80")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("man --warnings -l: %v\n%s", err, stderr.String())
		}
	}
}

// TestHiddenCommandsWired: make install runs `omega-run manpage` and
// `omega-run completion bash|zsh`.
