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
			writeExec(t, script, "#!/bin/sh\npwd\n")
			r = w.run("--mode", mode, "--workdir", w.extra, "--", "./where.sh")
			if got := strings.TrimSpace(r.stdout); got != w.extra || r.code != 0 {
				t.Errorf("pwd = %q (exit %d, %s), want %q", got, r.code, r.stderr, w.extra)
			}
		})
	}
}

// TestReopenStreams: with stdout and stderr redirected to files outside
// the writable set (omega-run -- make > build.log 2>&1), the program may
// open them again by name, as scripts do with /dev/stdout and tee
// /dev/stderr — it writes them through its fds anyway. A file given as
// stdin, open for reading only, stays unwritable, and so does everything
// else outside the writable set.
func TestReopenStreams(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				files := map[string]*os.File{}
				for name, flag := range map[string]int{"out.log": os.O_WRONLY | os.O_CREATE, "err.log": os.O_WRONLY | os.O_CREATE | os.O_APPEND, "in.txt": os.O_RDONLY | os.O_CREATE} {
					p := filepath.Join(w.outside, name)
					writeFile(t, p, "original "+name+"\n")
					os.Chown(p, u.uid, u.gid)
					f, err := os.OpenFile(p, flag, 0o644)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					files[name] = f
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				c := w.cmd(ctx, "--mode", mode, "--", "/bin/sh", "-c",
					`echo one > /dev/stdout; echo two >> /dev/stderr; echo tee | tee -a /dev/stderr >/dev/null
					 echo pwned > /dev/stdin; echo pwned > "$0"; exit 0`, filepath.Join(w.outside, "sentinel"))
				c.Stdin, c.Stdout, c.Stderr = files["in.txt"], files["out.log"], files["err.log"]
				if err := c.Run(); err != nil {
					t.Fatal(err)
				}
				read := func(name string) string {
					b, _ := os.ReadFile(filepath.Join(w.outside, name))
					return string(b)
				}
				if got := read("out.log"); got != "one\n" {
					t.Errorf("out.log = %q, want the line written through /dev/stdout", got)
				}
				// (after the original line, warnings may come first)
				if got := read("err.log"); !strings.HasPrefix(got, "original err.log\n") || !strings.Contains(got, "\ntwo\ntee\n") {
					t.Errorf("err.log = %q, want the lines written through /dev/stderr", got)
				}
				if got := read("in.txt"); got != "original in.txt\n" {
					t.Errorf("stdin's file, open read-only, was written: %q", got)
				}
				if w.sentinel() != "original" {
					t.Error("the sentinel outside the writable set was written")
				}
			})
		}
	}
}
