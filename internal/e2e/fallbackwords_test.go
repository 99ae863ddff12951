//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFallbackAtCloneWordsTrue: where the fallback without user
// namespaces is found only because clone fails (a filter refusing
// CLONE_NEWUSER; the up-front probe sees nothing), the mount plan's
// warnings were said as if its mounts were made: a working directory
// below the host's /tmp "kept in the sandbox, read-only" that the program
// then wrote to, and (root, --user) "the sandbox's /tmp, …, is 1777" where
// the program's /tmp was the host's. The fallback now says neither; the
// control, with namespaces, says both, and they hold there. Both stages,
// root and nobody.
func TestFallbackAtCloneWordsTrue(t *testing.T) {
	const kept, privateTmp = "it is kept in the sandbox, read-only", "the sandbox's /tmp, "
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				dir, err := os.MkdirTemp("/tmp", "omega-e2e-fallbackwd-")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
				chownTree(t, dir, u)
				w.dir = dir
				run := func(refused bool, args ...string) result {
					args = append(args, "--", "/bin/sh", "-c", "echo ran; echo x > f && echo wrote")
					if !refused {
						return w.runProg(b, args...)
					}
					return w.runProg(probe, append([]string{"refuse-userns", "1", b}, args...)...)
				}
				// On a terminal: the kept directory's warning is said to
				// one only (TestWorkdirKeptWarnedOnce).
				onTerm := func(refused bool) string {
					out, _ := onNewPty(t, 24, 200, "", func(ctx context.Context) *exec.Cmd {
						args := []string{"--", "/bin/sh", "-c", "echo ran; echo x > f && echo wrote"}
						if !refused {
							return w.cmdOf(ctx, b, args...)
						}
						return w.cmdOf(ctx, probe, append([]string{"refuse-userns", "1", b}, args...)...)
					})
					return out
				}
				if out := onTerm(false); !strings.Contains(out, "ran") || strings.Contains(out, "wrote") || !strings.Contains(out, kept) {
					t.Fatalf("control: terminal showed:\n%s\nwant the directory kept read-only, and said", out)
				}
				if out := onTerm(true); !strings.Contains(out, "wrote") || !strings.Contains(out, "user namespaces are unavailable") || strings.Contains(out, kept) {
					t.Errorf("fallback: terminal showed:\n%s\nwant the write done (no mounts) and no word of a directory kept read-only", out)
				}
				os.Remove(dir + "/f")
				if u.uid != 0 {
					return
				}
				// --user: the private /tmp is made 1777 in a data dir others
				// may enter, which only the sandbox's /tmp is.
				if r := run(false, "--user", "nobody"); !strings.Contains(r.stderr, privateTmp) {
					t.Fatalf("control --user: exit %d, stderr %q; want the private /tmp's mode said", r.code, r.stderr)
				}
				if r := run(true, "--user", "nobody"); !strings.HasPrefix(r.stdout, "ran\n") || strings.Contains(r.stderr, privateTmp) {
					t.Errorf("fallback --user: exit %d, stdout %q, stderr %q; want the program run, and no word of a private /tmp the launch has not", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestFallbackAtCloneWorkdirUnderRun: on a terminal, a working directory
// below the host's /run is named by the mount plan's warning (kept
// read-only), and the working directory's own warning (not writable,
// --allow-write .) is left to it. The fallback found at the clone, which
// keeps nothing and says none of that, said neither: the program could
// not write there and nothing told why. It now says the working
// directory's warning. Both stages, root and nobody.
func TestFallbackAtCloneWorkdirUnderRun(t *testing.T) {
	const notWritable = "is outside the writable set: the program cannot write in it"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				dir, err := os.MkdirTemp("/run", "omega-e2e-fallbackwd-")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
				chownTree(t, dir, u)
				w.dir = dir
				out, _ := onNewPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd {
					return w.cmdOf(ctx, probe, "refuse-userns", "1", b, "--", "/bin/sh", "-c", "echo x > f || echo refused")
				})
				if !strings.Contains(out, "user namespaces are unavailable") || !strings.Contains(out, "refused") ||
					!strings.Contains(out, notWritable) || strings.Contains(out, "kept in the sandbox") {
					t.Errorf("terminal showed:\n%s\nwant the write refused and the working directory's warning (%q), no word of a directory kept", out, notWritable)
				}
			})
		}
	}
}
