//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nprocAsked is the --rlimit nproc the tests below give.
const nprocAsked = 20

// nprocWorld is the caller's world for the tests below, and the flags to
// run with: root's program runs as nobody (the kernel exempts root's own
// processes from nproc).
func nprocWorld(t *testing.T, u user) (*world, []string) {
	if u.uid != 0 {
		return newWorld(t, u), nil
	}
	return newWorld(t, u), []string{"--user", strconv.Itoa(nobody.uid)}
}

// TestRlimitNprocWhole: --rlimit nproc=N lets the program have N
// processes of its own: the init stage's tasks count against it in the
// sandbox's user namespace too (PID 1 and its connect broker's thread in
// C, PID 1's Go runtime threads in Go: 8 to 10), and come on top, as
// they do on the default half (TestProcessShareKept). Without that the
// Go init stage left it 10 of 20, the C one 17. Its own and 19 more;
// one fewer for a thread PID 1's Go runtime starts after counting its
// own.
func TestRlimitNprocWhole(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w, flags := nprocWorld(t, u)
			flags = append(flags, "--rlimit", "nproc="+strconv.Itoa(nprocAsked))
			out, held := forkHeld(t, w, flags...)
			t.Logf("forked %d more", held)
			if held < nprocAsked-2-lateThreads() || held > nprocAsked-1 {
				t.Fatalf("--rlimit nproc=%d: the program forked %d more (%d to %d wanted): %s",
					nprocAsked, held, nprocAsked-2-lateThreads(), nprocAsked-1, out)
			}
		})
	}
}

// killsSetting kills a process that sets a resource limit (prlimit64 with
// a new limit, setrlimit); reading them (glibc reads RLIMIT_STACK as a
// program starts) stays allowed.
const killsSetting = `{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[` +
	`{"names":["prlimit64"],"action":"SCMP_ACT_KILL_PROCESS","args":[{"index":2,"value":0,"op":"SCMP_CMP_NE"}]},` +
	`{"names":["setrlimit"],"action":"SCMP_ACT_KILL_PROCESS"}]}`

// TestProfileKillsSettingLimits: a custom profile that kills on setting
// limits binds the program, not the init stage. The Go init stage's PID 1
// trims its own nproc right before it starts the program, and sets
// --rlimit's on it, after the profile: those calls run on its threads
// the profile does not bind (it carried it on all of them before, and was
// killed: 125, blamed on a filter around omega-run). The C init stage set
// --rlimit's in the program's process after the profile, and rx (both)
// in the process that becomes the program: they killed it (159); both
// set them before it now. The program runs, with half the caller's nproc
// (PID 1's tasks on top), and with --rlimit nproc=N forks N-1 more.
func TestProfileKillsSettingLimits(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w, flags := nprocWorld(t, u)
			path := filepath.Join(w.extra, "profile.json")
			writeFile(t, path, killsSetting)
			flags = append(flags, "--seccomp", path)
			args := append([]string{"--nproc=61:100", "--sigpending=1000:2000", "--msgqueue=8192", "--", bin}, flags...)
			r := w.runProg("prlimit", append(args, "--", "bash", "-c", sharedLimitsShown)...)
			if r.code != 0 || !halfShown(r.stdout, "500 500 4096 4096") {
				t.Errorf("%+v; want the program run, its limits halved", r)
			}
			asked := "nproc=" + strconv.Itoa(nprocAsked)
			out, held := forkHeld(t, w, append(flags, "--rlimit", asked)...)
			if held < nprocAsked-2-lateThreads() || held > nprocAsked-1 {
				t.Errorf("--rlimit %s: the program forked %d more (%d to %d wanted): %s",
					asked, held, nprocAsked-2-lateThreads(), nprocAsked-1, out)
			}
			r = w.run(append(flags, "--mode", "rx", "--rlimit", asked, "--", "bash", "-c", "echo $(ulimit -Su) $(ulimit -Hu)")...)
			if want := fmt.Sprintf("%d %d\n", nprocAsked, nprocAsked); r.code != 0 || r.stdout != want {
				t.Errorf("rx: %+v; want the program run with %s", r, asked)
			}
		})
	}
}

// forkHeld runs forkHold in the sandbox with flags and returns what
// omega-run printed and how many processes the program forked.
func forkHeld(t *testing.T, w *world, flags ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	dir := filepath.Join(w.extra, "hold")
	// nobody's: the program's as root's --user too.
	if err := os.Mkdir(dir, 0o755); err != nil || os.Chown(dir, nobody.uid, nobody.gid) != nil {
		t.Fatal(dir, err)
	}
	args := append(flags, "--allow-write", dir, "--", "python3", "-c", forkHold, dir)
	cmd := w.cmd(ctx, args...)
	var out lockedBuffer // read while the program runs
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		os.WriteFile(filepath.Join(dir, "release"), nil, 0o644)
		cmd.Wait()
		os.RemoveAll(dir)
	}()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, "count")); err == nil {
			held, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return out.String(), held
		}
	}
	return "no count: " + out.String(), -1
}
