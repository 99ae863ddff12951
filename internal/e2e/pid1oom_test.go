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
	// The scores read last: the Go stage's PID 1 puts its own back once
	// the program's execve returns (before --rlimit's gate lets it go),
	// which the program may beat. Before, the program tries to lower its own back,
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

// oomUnraised is the start of the warning that the program kept PID 1's
// OOM score.
const oomUnraised = "the program's OOM score could not be raised above PID 1's"

// hostProcOOM is what the covered /proc's warning says of the OOM score.
const hostProcOOM = "which lists every process, and the program keeps PID 1's OOM score (below); everything else is in place"

// TestPID1OOMScoreUnraisedSaid: where PID 1 has no proc of its own to
// raise the program's OOM score through (a host /proc with parts
// covered, as in a container, refuses fsopen and mount of a new one; a
// filter refuses mount), the program kept PID 1's score and nothing said
// so. One warning now, on both stages, as root and as nobody; none where
// the score was raised. The covered /proc's own warning, said first,
// ended "everything else is in place": it names the OOM score's now. The program's own score, read inside, shows the
// warning is true.
func TestPID1OOMScoreUnraisedSaid(t *testing.T) {
	requireRoot(t)
	const script = `cat /proc/self/oom_score_adj`
	noMount := []string{"seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1," + sysFsopen + "=1"}
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				check := func(how string, r result, want int) {
					t.Helper()
					score := "1000\n"
					if want == 1 {
						score = "0\n"
					}
					if got := strings.Count(r.stderr, oomUnraised); got != want || r.code != 0 || r.stdout != score {
						t.Errorf("%s: %d warnings (want %d); exit %d, stdout %q (want %q), stderr %q", how, got, want, r.code, r.stdout, score, r.stderr)
					}
				}
				check("plain", w.runProg(b, "--", "/bin/sh", "-c", script), 0)
				r := underRootWrapperOf(w, b, "mount -t tmpfs none /proc/sys/kernel/random", "--", "/bin/sh", "-c", script)
				check("host /proc covered", r, 1)
				// The host /proc's warning said "everything else is in
				// place" above this one: it now names it among what is not.
				if !strings.Contains(r.stderr, hostProcOOM) {
					t.Errorf("host /proc covered: stderr %q; want the host /proc's warning to name the OOM score's (%q)", r.stderr, hostProcOOM)
				}
				r = w.runProg(probe, append(noMount, b, "--", "/bin/sh", "-c", script)...)
				check("mount and fsopen refused", r, 1)
			})
		}
	}
}
