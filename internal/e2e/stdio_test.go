//go:build linux

package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStdioByteForByte pipes 100 MiB of random bytes through cat.
func TestStdioByteForByte(t *testing.T) {
	data := make([]byte, 100<<20)
	rng := rand.NewChaCha8([32]byte{1})
	rng.Read(data)
	want := sha256.Sum256(data)
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			c := w.cmd(ctx, "--mode", mode, "--", "cat")
			c.Stdin = bytes.NewReader(data)
			h := sha256.New()
			c.Stdout = h
			if err := c.Run(); err != nil {
				t.Fatal(err)
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Error("stdout differs from stdin")
			}
		})
	}
}

// TestArgumentsAndWorkdir: odd arguments arrive unchanged, --workdir and
// relative program paths behave as in a plain run.
func TestArgumentsAndWorkdir(t *testing.T) {
	args := []string{"a b", `c"d`, "e'f", "g\nh", "", "*", "$HOME", "--mode"}
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			r := w.run(append([]string{"--mode", mode, "--", "printf", "[%s]"}, args...)...)
			want := "[" + strings.Join(args, "][") + "]"
			if r.stdout != want {
				t.Errorf("args = %q, want %q", r.stdout, want)
			}
			script := filepath.Join(w.extra, "where.sh")
			writeFile(t, script, "#!/bin/sh\npwd\n")
			os.Chmod(script, 0o755)
			r = w.run("--mode", mode, "--workdir", w.extra, "--", "./where.sh")
			if got := strings.TrimSpace(r.stdout); got != w.extra || r.code != 0 {
				t.Errorf("pwd = %q (exit %d, %s), want %q", got, r.code, r.stderr, w.extra)
			}
		})
	}
}
