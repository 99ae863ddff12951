//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// forkHold forks children until the kernel refuses (1,000 at most),
// writes their number to DIR/count and holds them until DIR/release
// exists; they end with it (a pipe), in rwx too.
const forkHold = `import os, sys, time
d = sys.argv[1]
r, w = os.pipe()
n = 0
while n < 1000:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(w)
        os.read(r, 1)
        os._exit(0)
    n += 1
open(d + "/count.new", "w").write(str(n))
os.rename(d + "/count.new", d + "/count")
end = time.time() + 30
while time.time() < end and not os.path.exists(d + "/release"):
    time.sleep(0.01)
`

// forkFive needs five processes of its own at once.
const forkFive = `import os
for _ in range(5):
    if os.fork() == 0:
        os._exit(0)
`

// TestProcessShareKept: the kernel counts a user's processes (and
// threads) across namespaces against RLIMIT_NPROC, so a program that forks
// all it can (a fork bomb, a runaway parallel build) would leave the
// user's shell, editor and desktop outside unable to start any. In
// sandbox mode its user namespace holds it to half the caller's limit
// first (and --net none's re-executed init stage too); rwx is the control
// that it takes them all. The program gets its half whole: the init
// stage's own tasks (PID 1, its connect broker's thread, the Go init
// stage's runtime threads) count there too, and come on top (the Go one
// left the program 21 of 30, the C one 27). The caller is a uid of the
// test's own (no other process counts against it) with a limit of 60;
// root is exempt from the limit in the kernel, and so not tested.
func TestProcessShareKept(t *testing.T) {
	uid := 40000 + os.Getpid()%20000
	u := user{"u" + strconv.Itoa(uid), uid, uid}
	for _, c := range []struct{ mode, net string }{{"sandbox", "host"}, {"sandbox", "none"}, {"rwx", "host"}} {
		t.Run(c.mode+"/"+c.net, func(t *testing.T) {
			w := newWorld(t, u)
			five := func() result { return w.runProg("prlimit", "--nproc=60:60", "--", "python3", "-c", forkFive) }
			held, outside := holdProcesses(t, w, uid, five, "--mode", c.mode, "--net", c.net)
			if c.mode == "rwx" {
				if outside.code == 0 {
					t.Fatalf("control: %d processes held, and five more outside: %+v", held, outside)
				}
				return
			}
			// 29 and the program's own: its 30, one spare for a
			// thread the Go runtime starts after counting its own.
			if outside.code != 0 || held < 28-lateThreads() || held > 29 {
				t.Fatalf("%d processes held in the sandbox (the caller's limit 60: %d to 29 wanted); five outside: %+v", held, 28-lateThreads(), outside)
			}
		})
	}
}

// holdProcesses runs forkHold under omega-run with the flags given and an
// nproc limit of 60, and returns how many it got and what outside did
// meanwhile; it returns once uid (whose processes forkHold's are) has
// none left, as the next run's count would include them (-count=2 did).
func holdProcesses(t *testing.T, w *world, uid int, outside func() result, flags ...string) (int, result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	args := append([]string{"--nproc=60:60", "--", bin}, flags...)
	args = append(args, "--allow-write", w.extra, "--", "python3", "-c", forkHold, w.extra)
	cmd := w.cmdOf(ctx, "prlimit", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		os.WriteFile(filepath.Join(w.extra, "release"), nil, 0o644)
		cmd.Wait()
		uidGone(t, uid)
	}()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(w.extra, "count"))
		if err == nil {
			held, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return held, outside()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program wrote no count: %s", out.String())
		}
	}
}

// TestUserShareKept: root's --user program is not exempt from nproc, as
// root's own are. In the sandbox's user namespace its processes (and PID
// 1's, which switches too) count as the user's and are held to half
// root's limit; above it the kernel charges a namespace's processes to
// its owner, root (exempt), not to the user, whose processes outside
// share no count with the program: they fork at a limit of 20 while it
// holds its 30. rwx, where the program runs as the user on the host, is
// the control that they would not. Root only: --user is root's.
func TestUserShareKept(t *testing.T) {
	uid := 40000 + (os.Getpid()+7)%20000
	u := user{"u" + strconv.Itoa(uid), uid, uid}
	for _, mode := range []string{"sandbox", "rwx"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, u) // the user's: data dir and the count's dir
			asRoot := *w
			asRoot.u = rootUser
			five := func() result { return w.runProg("prlimit", "--nproc=20:20", "--", "python3", "-c", forkFive) }
			held, outside := holdProcesses(t, &asRoot, uid, five, "--mode", mode, "--user", strconv.Itoa(uid), "--data-dir", w.dataDir)
			if mode == "rwx" {
				if outside.code == 0 {
					t.Fatalf("control: %d processes held, and five more outside: %+v", held, outside)
				}
				return
			}
			if outside.code != 0 || held < 28-lateThreads() || held > 29 {
				t.Fatalf("%d processes held in the sandbox (root's limit 60: %d to 29 wanted); five outside at 20: %+v", held, 28-lateThreads(), outside)
			}
		})
	}
}

// uidGone waits (5 s at most) until no process runs as uid: forkHold's
// children end with its pipe, not with it.
func uidGone(t *testing.T, uid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		left := false
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			var st syscall.Stat_t
			if _, err := strconv.Atoi(d.Name()); err == nil && syscall.Stat("/proc/"+d.Name(), &st) == nil && int(st.Uid) == uid {
				left = true
				break
			}
		}
		if !left {
			return
		}
	}
	t.Errorf("uid %d still has processes 5 s after the release", uid)
}

// sharedLimitsShown prints the program's nproc, sigpending and msgqueue
// limits, soft and hard.
const sharedLimitsShown = `echo $(ulimit -Su) $(ulimit -Hu) $(ulimit -Si) $(ulimit -Hi) $(ulimit -Sq) $(ulimit -Hq)`

// halfShown tells whether got, sharedLimitsShown's, has nproc soft and
// hard alike, half the caller's (31 of 61) plus the init stage's own
// tasks (1 to 2 in C, 5 to 10 or so in Go), and then rest.
func halfShown(got, rest string) bool {
	f := strings.Fields(got)
	if len(f) != 6 || f[0] != f[1] || strings.Join(f[2:], " ") != rest {
		return false
	}
	n, _ := strconv.Atoi(f[0])
	return n >= 31 && n <= 31+16
}

// onTopShown tells whether got, sharedLimitsShown's, has nproc soft and
// hard the given ones with the init stage's own tasks on top (the same
// number on both: 1 to 2 in C, 5 to 10 or so in Go), and then rest.
func onTopShown(got string, soft, hard int, rest string) bool {
	f := strings.Fields(got)
	if len(f) != 6 || strings.Join(f[2:], " ") != rest {
		return false
	}
	s, _ := strconv.Atoi(f[0])
	h, _ := strconv.Atoi(f[1])
	return s-soft == h-hard && s > soft && s <= soft+16
}

// TestSharedLimitsWithoutProcSys: where /proc/sys is read-only (a
// container's, a unit's ProtectKernelTunables=), the inotify, fanotify and
// namespace counts cannot be set, but the resource limits need no sysctl:
// the program is still held to half of them, and the warning names only
// what is left open.
func TestSharedLimitsWithoutProcSys(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			limits := " && prlimit --pid $$ --nproc=61:100 --sigpending=1000:2000 --msgqueue=8192"
			r := underRootWrapper(w, readOnlyProcSys+limits, "--", "bash", "-c", sharedLimitsShown)
			if r.code != 0 || !halfShown(r.stdout, "500 500 4096 4096") {
				t.Errorf("%+v; want the limits halved", r)
			}
			if !strings.Contains(r.stderr, "your user's inotify, fanotify and namespace limits") ||
				strings.Contains(r.stderr, "your user's process") {
				t.Errorf("stderr %q; want the counts named, not the processes", r.stderr)
			}
		})
	}
}

// TestSharedLimitsInside: what the program sees — half the caller's
// limits, hard too (nproc with the init stage's tasks on top); a limit
// the caller gives with --rlimit is theirs (nproc with those on top).
func TestSharedLimitsInside(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			limits := []string{"--nproc=61:100", "--sigpending=1000:2000", "--msgqueue=8192", "--"}
			for _, c := range []struct {
				flags []string
				want  string
			}{
				{[]string{"--mode", "sandbox"}, "half 500 500 4096 4096"},
				{[]string{"--mode", "sandbox", "--rlimit", "nproc=70:80"}, "top 500 500 4096 4096"},
				{[]string{"--mode", "sandbox", "--rlimit", "sigpending=300", "--rlimit", "msgqueue=6000"}, "half 300 300 6000 6000"},
				{[]string{"--mode", "rx"}, "61 100 1000 2000 8192 8192"},
			} {
				args := append(append(append(limits[:len(limits):len(limits)], bin), c.flags...), "--", "bash", "-c", sharedLimitsShown)
				r := w.runProg("prlimit", args...)
				half, halved := strings.CutPrefix(c.want, "half ")
				top, onTop := strings.CutPrefix(c.want, "top ")
				switch {
				case onTop:
					if r.code != 0 || !onTopShown(r.stdout, 70, 80, top) {
						t.Errorf("%v: %+v; want 70:80 and the init stage's tasks on top, then %q", c.flags, r, top)
					}
				case r.code != 0 || (halved && !halfShown(r.stdout, half)) || (!halved && strings.TrimSpace(r.stdout) != c.want):
					t.Errorf("%v: %+v; want %q", c.flags, r, c.want)
				}
			}
		})
	}
}

// TestSharedLimitsProfileRefusesSetting: a custom profile that refuses
// setting limits (prlimit64 with a new limit, setrlimit: a recorded
// allowlist) binds the program, not the init stage, which halves the
// shared limits before it installs the profile: the program still gets
// its half, and no warning. The Go init stage set them after (this
// session's first version): the caller's whole limits, and a warning.
func TestSharedLimitsProfileRefusesSetting(t *testing.T) {
	const profile = `{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[` +
		`{"names":["prlimit64"],"action":"SCMP_ACT_ERRNO","args":[{"index":2,"value":0,"op":"SCMP_CMP_NE"}]},` +
		`{"names":["setrlimit"],"action":"SCMP_ACT_ERRNO"}]}`
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			path := filepath.Join(w.extra, "profile.json")
			writeFile(t, path, profile)
			r := w.runProg("prlimit", "--nproc=61:100", "--sigpending=1000:2000", "--msgqueue=8192", "--",
				bin, "--seccomp", path, "--", "bash", "-c", sharedLimitsShown)
			if r.code != 0 || !halfShown(r.stdout, "500 500 4096 4096") || strings.Contains(r.stderr, "your user's process") {
				t.Errorf("%+v; want the limits halved, no warning", r)
			}
		})
	}
}

// TestSharedLimitsSmallCaller: at a small nproc (20) half the caller's
// with the init stage's tasks on top (the Go one's counted with those
// to come) passes the caller's limit: capped there, not left out, or
// the Go init stage's PID 1, whose threads count in the namespace too,
// left its program none to start with (126). (The launcher's threads
// count at the caller's level, so the program gets less than its half
// there.) A uid of the test's own, as above.
func TestSharedLimitsSmallCaller(t *testing.T) {
	uid := 40000 + (os.Getpid()+7)%20000
	w := newWorld(t, user{"u" + strconv.Itoa(uid), uid, uid})
	r := w.runProg("prlimit", "--nproc=20:20", "--", bin, "--", "sh", "-c", "for i in 1 2 3 4 5; do /bin/true; done && echo ran")
	if r.code != 0 || r.stdout != "ran\n" {
		t.Errorf("%+v; want the program to fork and run", r)
	}
}

// lateThreads is how many threads the Go init stage's PID 1 may start
// after counting its own for nproc (its runtime starts them as goroutines
// block: the broker's listener, the wait); each leaves the program one
// process fewer than its share.
func lateThreads() int {
	if goInitStage() {
		return 2
	}
	return 0
}
