//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// firstLimitsSrc is a program whose very first instructions read its
// RLIMIT_NPROC and RLIMIT_NOFILE and print them: no libc, no loader, so
// nothing runs before the reads (x86_64 only).
const firstLimitsSrc = `
struct rl { unsigned long cur, max; };
static long sys4(long n, long a, long b, long c, long d) {
	long r;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return r;
}
static char *num(char *p, unsigned long v) {
	char d[24];
	int n = 0;
	if (v == ~0UL) {
		for (const char *s = "unlimited"; *s; s++) *p++ = *s;
		return p;
	}
	do { d[n++] = '0' + v % 10; v /= 10; } while (v);
	while (n) *p++ = d[--n];
	return p;
}
static char *str(char *p, const char *s) { while (*s) *p++ = *s++; return p; }
__attribute__((force_align_arg_pointer, noreturn)) void _start(void) {
	struct rl np, nf;
	sys4(302, 0, 6, 0, (long)&np); /* prlimit64(0, RLIMIT_NPROC, NULL, &np) */
	sys4(302, 0, 7, 0, (long)&nf); /* RLIMIT_NOFILE */
	char buf[128], *p = buf;
	p = str(p, "nproc="); p = num(p, np.cur); p = str(p, ":"); p = num(p, np.max);
	p = str(p, " nofile="); p = num(p, nf.cur); p = str(p, ":"); p = num(p, nf.max);
	p = str(p, "\n");
	sys4(1, 1, (long)buf, p - buf, 0);
	for (;;) sys4(231, 0, 0, 0, 0);
}
`

var firstLimits struct {
	once sync.Once
	path string
	err  string
}

// firstLimitsProg builds the program once (static, in the shared scratch
// dir every user can run from), or skips.
func firstLimitsProg(t *testing.T) string {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skip("the probe is x86_64 code")
	}
	firstLimits.once.Do(func() {
		if _, err := exec.LookPath("gcc"); err != nil {
			firstLimits.err = "needs gcc"
			return
		}
		src, out := filepath.Join(root, "firstlimits.c"), filepath.Join(root, "firstlimits")
		if err := os.WriteFile(src, []byte(firstLimitsSrc), 0o644); err != nil {
			firstLimits.err = err.Error()
			return
		}
		b, err := exec.Command("gcc", "-static", "-nostdlib", "-fno-stack-protector", "-fno-builtin", "-O1",
			"-o", out, src).CombinedOutput()
		if err != nil {
			firstLimits.err = "gcc cannot build the probe: " + err.Error() + "\n" + string(b)
			return
		}
		firstLimits.path = out
	})
	if firstLimits.path == "" {
		t.Skip(firstLimits.err)
	}
	return firstLimits.path
}

// gateLimits are the limits the tests ask for, and what the program must
// see of them: nproc with PID 1's tasks on top (0 in rx; 1 to 2 in C, 8
// to 10 or so in Go), which count against it in the namespace.
var (
	gateLimits = []string{"--rlimit", "nproc=77:88", "--rlimit", "nofile=33:44"}
	gateWant   = "nproc=77+N:88+N nofile=33:44\n"
)

// gateSaw tells whether the program saw gateWant.
func gateSaw(out string) bool {
	for n := 0; n <= 16; n++ {
		if out == fmt.Sprintf("nproc=%d:%d nofile=33:44\n", 77+n, 88+n) {
			return true
		}
	}
	return false
}

// TestRlimitsBeforeFirstInstruction: the program's first instruction
// already runs under its --rlimit limits, every time, in both modes and
// both init stages (the Go one used to set them with prlimit just after
// the program had started).
func TestRlimitsBeforeFirstInstruction(t *testing.T) {
	prog := firstLimitsProg(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				late := 0
				const runs = 50
				for i := 0; i < runs; i++ {
					r := w.run(append(append([]string{"--mode", mode}, gateLimits...), "--", prog)...)
					if r.code != 0 {
						t.Fatalf("run %d: %+v; want exit 0", i, r)
					}
					if !gateSaw(r.stdout) {
						late++
						if late == 1 {
							t.Errorf("run %d: the program's first instructions saw %q, want %q", i, r.stdout, gateWant)
						}
					}
				}
				if late > 0 {
					t.Errorf("%d of %d runs started without their limits", late, runs)
				}
			})
		}
	}
}

// TestRlimitsNoneAsked: without --rlimit the program keeps the limits it
// inherits (the control for the test above).
func TestRlimitsNoneAsked(t *testing.T) {
	prog := firstLimitsProg(t)
	w := newWorld(t, nobody)
	r := w.run("--mode", "sandbox", "--", prog)
	if r.code != 0 || strings.Contains(r.stdout, "nproc=77:88") || !strings.HasPrefix(r.stdout, "nproc=") {
		t.Fatalf("%+v; want the inherited limits", r)
	}
}

// TestRlimitsOddPrograms: a program nobody may only run (mode 0711) and a
// set-user-id one get their limits before their first instruction too
// (the Go init stage's ptrace gate: no_new_privs already ignores set-id
// bits, and an unreadable program only makes the exec non-dumpable).
func TestRlimitsOddPrograms(t *testing.T) {
	prog := firstLimitsProg(t)
	for _, c := range []struct {
		name string
		mode os.FileMode
	}{{"execute-only", 0o711}, {"set-user-id", 0o4755}} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, nobody)
			odd := filepath.Join(filepath.Dir(w.home), "firstlimits-"+strings.ReplaceAll(c.name, "-", ""))
			b, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(odd, b, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(odd, c.mode); err != nil { // root-owned
				t.Fatal(err)
			}
			for i := 0; i < 10; i++ {
				r := w.run(append(append([]string{"--mode", "sandbox"}, gateLimits...), "--", odd)...)
				if r.code != 0 || !gateSaw(r.stdout) {
					t.Fatalf("run %d: %+v; want %q", i, r, gateWant)
				}
			}
		})
	}
}

// TestRlimitsPtraceRefused: where ptrace is refused (a seccomp filter
// around omega-run that kills or fails it, like systemd's
// SystemCallFilter= without @debug, or a profile that does; Yama's
// ptrace_scope 2 or 3 fails it too), the Go init stage still starts the
// program, sets the limits just after its start and says so; under
// --fail-closed it refuses, before the program runs. The C init stage
// and rx need no ptrace.
func TestRlimitsPtraceRefused(t *testing.T) {
	prog := firstLimitsProg(t)
	const sysPtrace = "101" // x86_64
	const said = "--rlimit: PTRACE_TRACEME is refused"
	for _, u := range users {
		w := newWorld(t, u)
		killing := filepath.Join(w.home, "kill-ptrace.json")
		writeFile(t, killing, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["ptrace"], "action": "SCMP_ACT_KILL_PROCESS"}]}`)
		for _, c := range []struct {
			name    string
			wrapper []string
			args    []string
		}{
			{"filter kills", []string{probe, "seccomp-exec", sysPtrace + "=kill"}, nil},
			{"filter fails", []string{probe, "seccomp-exec", sysPtrace + "=1"}, nil},
			{"profile kills", nil, []string{"--seccomp", killing}},
		} {
			for _, mode := range confinedModes {
				t.Run(u.name+"/"+c.name+"/"+mode, func(t *testing.T) {
					args := append(append(append([]string{"--mode", mode}, c.args...), gateLimits...), "--", prog)
					r := w.under(append(c.wrapper, "env"), args...)
					gated := goInitStage() && mode == "sandbox"
					if r.code != 0 || !strings.HasPrefix(r.stdout, "nproc=") || strings.Contains(r.stderr, said) != gated {
						t.Fatalf("%+v; want the program run and the fallback said: %v", r, gated)
					}
					if !gated && !gateSaw(r.stdout) {
						t.Errorf("stdout %q, want %q", r.stdout, gateWant)
					}
					if !gated {
						return
					}
					// nofile alone: root's nproc would be refused first.
					args = append(append([]string{"--mode", mode, "--fail-closed", "--rlimit", "nofile=33:44"}, c.args...), "--", prog)
					r = w.under(append(c.wrapper, "env"), args...)
					if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: "+said) {
						t.Fatalf("--fail-closed: %+v; want 125 before the program runs", r)
					}
				})
			}
		}
	}
}
