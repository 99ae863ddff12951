//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestPID1SparedByOOM: under --memory PID 1 is in the program's cgroup,
// whose OOM killer kills the largest process there: the Go PID 1 (≈ 7 MB)
// is larger than each of a shell script's processes (the C one, ≈ 0.6 MB,
// than those of a program that keeps them small on purpose), so PID 1 was
// killed, the whole sandbox with it (137, the script's last line never
// ran), and its after-run checks were lost. The program now starts with
// oom_score_adj 1000 above PID 1's, which it cannot lower. Root, and root
// with --user nobody (v1 memory cgroups need root).
func TestPID1SparedByOOM(t *testing.T) {
	requireRoot(t)
	// The scores read last: PID 1 puts its own back once the program's
	// start returns, which the program may beat (through the Go stage's
	// ptrace gate, say). Before, the program tries to lower its own back,
	// which needs no capability, only a writable /proc.
	const script = `i=0; while [ $i -lt 30 ]; do sh -c 'x=$(head -c 4000000 /dev/zero | tr "\0" a); sleep 3' & i=$((i+1)); done
wait; echo 0 >/proc/self/oom_score_adj 2>/dev/null; echo "$(cat /proc/1/oom_score_adj) $(cat /proc/self/oom_score_adj) program-done"`
	for name, b := range bothStages(t) {
		for _, user := range [][]string{nil, {"--user", "nobody"}, {"no-fsopen"}} {
			t.Run(name+"/"+strings.Join(user, "="), func(t *testing.T) {
				w := newWorld(t, rootUser)
				prog, pre := b, []string{}
				if len(user) == 1 && user[0] == "no-fsopen" {
					// A kernel before 5.2, or a filter that refuses the new
					// mount API: PID 1's proc is mounted and unmounted.
					prog, pre, user = probe, []string{"seccomp-exec", sysFsopen + "=38", b}, nil
				}
				args := append(append(append(pre, "--memory", "64M"), user...), "--", "/bin/sh", "-c", script)
				r := w.runProg(prog, args...)
				if r.stdout != "0 1000 program-done\n" {
					t.Errorf("exit %d, stdout %q, stderr %q: want PID 1's score 0 and the program's 1000, and the program alive after its children's OOM kills",
						r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
