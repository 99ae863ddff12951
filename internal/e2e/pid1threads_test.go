//go:build linux

package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pid1ThreadsScript prints, for each of PID 1's threads, the fields that
// tell what it may do; status is world-readable though PID 1 is not
// dumpable. The Groups line follows --groups (unix.Setgroups was this
// thread's only). PID 1 is the shell's parent, named in /proc's pid
// namespace: the host's where the mounts were refused.
const pid1ThreadsScript = `while read -r k v; do [ "$k" = PPid: ] && pp=$v; done < /proc/self/status
for t in /proc/$pp/task/*; do
	echo "task ${t##*/} $(grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Groups):' $t/status | tr -s '\t\n' '  ')"
done`

// TestPID1ThreadsConfined: every thread of the sandbox's PID 1, not only
// the one that starts the program, holds no capability, an empty bounding
// set and no_new_privs once the program runs — as root and nobody, with
// --user (root) and with --rlimit's ptrace gate; and in a CGO_ENABLED=0
// build, whose other threads keep their bounding set (inert: see
// pid1threads_nocgo_linux.go). The Go init stage confined its locked
// thread only: the other threads kept the namespace's full capabilities.
func TestPID1ThreadsConfined(t *testing.T) {
	cases := []struct {
		name  string
		u     user
		args  []string
		nocgo bool
		wrap  []string // runs omega-run
	}{
		// A custom profile (not without cgo) that kills calls the
		// program's shell makes none of: the other threads' drop runs
		// before it binds PID 1's locked thread.
		{"root-profile-kills", rootUser, []string{"--seccomp", "kill.json"}, false, nil},
		{"root", rootUser, nil, false, nil},
		{"nobody", nobody, nil, false, nil},
		{"root-rlimit", rootUser, []string{"--rlimit", "nproc=4000"}, false, nil},
		{"nobody-rlimit", nobody, []string{"--rlimit", "nproc=4000"}, false, nil},
		{"root-user", rootUser, []string{"--user", "nobody", "--groups", "nogroup"}, false, nil},
		{"root-user-rlimit", rootUser, []string{"--user", "nobody", "--rlimit", "nproc=4000"}, false, nil},
		{"nocgo-root", rootUser, nil, true, nil},
		{"nocgo-nobody-rlimit", nobody, []string{"--rlimit", "nproc=4000"}, true, nil},
		{"nocgo-root-user", rootUser, []string{"--user", "nobody", "--groups", "nogroup"}, true, nil},
		// /proc is the host's: its thread ids are not PID 1's namespace's.
		{"mounts-refused", nobody, nil, false, []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.u)
			prog := bin
			if c.nocgo {
				prog = nocgoBinary(t)
			}
			// OMEGA_E2E_BIN may be a build without cgo too.
			version := w.runProg(prog, "--version")
			inert := strings.Contains(version.stdout, "built-in profiles only")
			if goInitStage() && !inert {
				t.Skip("a cgo build's Go init stage (-tags omega_goinit, a test build) leaves PID 1's other threads (pid1threads_cgo_linux.go); the nocgo cases check that stage")
			}
			if slices.Contains(c.args, "kill.json") {
				if inert {
					t.Skip("a build without cgo takes no custom profile")
				}
				prof := filepath.Join(w.extra, "kill.json")
				writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["tgkill", "capset"], "action": "SCMP_ACT_KILL_PROCESS"}]}`)
				c.args = []string{"--seccomp", prof}
			}
			args := append(c.args, "--", "/bin/sh", "-c", pid1ThreadsScript)
			if c.wrap != nil {
				args = append(append(c.wrap[1:len(c.wrap):len(c.wrap)], prog), args...)
				prog = c.wrap[0]
			}
			r := w.runProg(prog, args...)
			if r.code != 0 {
				t.Fatalf("exit %d; stderr %q", r.code, r.stderr)
			}
			checkPID1Threads(t, r.stdout, inert)
		})
	}
}

// checkPID1Threads checks each thread's line of pid1ThreadsScript; the
// bounding set on task 1 only if others' is inert.
func checkPID1Threads(t *testing.T, out string, othersBoundingInert bool) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(out, "task ") {
		t.Fatalf("want PID 1's threads, got %q", out)
	}
	var groups []string
	for _, l := range lines {
		f := strings.Fields(l)
		for i := 0; i+1 < len(f); i++ {
			switch k, v := f[i], f[i+1]; {
			case k == "CapBnd:" && othersBoundingInert && f[1] != "1":
			case strings.HasPrefix(k, "Cap") && v != "0000000000000000":
				t.Errorf("%s: %s %s, want none", f[1], k, v)
			case k == "NoNewPrivs:" && v != "1":
				t.Errorf("%s: NoNewPrivs %s, want 1", f[1], v)
			}
		}
		_, g, _ := strings.Cut(l, "Groups:")
		g, _, _ = strings.Cut(g, "Cap")
		groups = append(groups, strings.TrimSpace(g))
	}
	for _, g := range groups[1:] {
		if g != groups[0] {
			t.Errorf("PID 1's threads have different supplementary groups: %q", groups)
			break
		}
	}
	if t.Failed() {
		t.Logf("PID 1's threads:\n%s", out)
	}
}
