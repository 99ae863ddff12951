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

// forkHoldTerm is forkHold with handlers: SIGUSR1 and SIGWINCH do
// nothing, SIGTERM ends it with status 7.
const forkHoldTerm = `import os, signal, sys
signal.signal(signal.SIGUSR1, lambda *a: None)
signal.signal(signal.SIGWINCH, lambda *a: None)
signal.signal(signal.SIGTERM, lambda *a: os._exit(7))
` + forkHold

// TestSignalsWhileProcessesHeld: once the program holds every process
// its limit allows (nproc for a user, --pids for root), signals forwarded
// to it and its end still go through PID 1: it exits with the program's
// status. The Go init stage's PID 1, whose runtime wanted one more thread
// than it had to take the signals, ended with "fatal error: newosproc"
// and status 2, the program killed without its handler's run.
func TestSignalsWhileProcessesHeld(t *testing.T) {
	uid := 40000 + (os.Getpid()+7)%20000
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range []user{rootUser, {"u" + strconv.Itoa(uid), uid, uid}} {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := []string{"--nproc=60:60", "--", b, "--allow-write", w.extra}
				if u.uid == 0 { // exempt from nproc
					args = append(args, "--pids", "40")
				}
				args = append(args, "--", "python3", "-c", forkHoldTerm, w.extra)
				for run := 0; run < 3; run++ { // it crashed in 2 of 3 runs
					code, out := signalsWhileHeld(t, w, args)
					if u.uid != 0 {
						uidGone(t, uid)
					}
					if code != 7 || strings.Contains(out, "goroutine") {
						t.Fatalf("run %d: exit %d, output %.400q; want 7, the program's own end on SIGTERM", run, code, out)
					}
				}
			})
		}
	}
}

// signalsWhileHeld runs prlimit with args, waits for forkHoldTerm's count,
// sends 100 times SIGUSR1 and SIGWINCH to omega-run, in bursts, then SIGTERM, and
// returns its status and output.
func signalsWhileHeld(t *testing.T, w *world, args []string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	cmd := w.cmdOf(ctx, "prlimit", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	count, release := filepath.Join(w.extra, "count"), filepath.Join(w.extra, "release")
	os.Remove(count)
	os.Remove(release)
	defer os.WriteFile(release, nil, 0o644)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(count); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the program wrote no count: %s", out.String())
		}
	}
	time.Sleep(time.Second)    // PID 1's threads idle
	for i := 0; i < 100; i++ { // bursts, PID 1's threads idle between
		cmd.Process.Signal(syscall.SIGUSR1)
		cmd.Process.Signal(syscall.SIGWINCH)
		if i%5 == 4 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	return shellStatus(cmd.ProcessState), out.String()
}

// TestFewPidsForGoInit: a build without cgo refuses (125, saying why) a
// --pids its Go init stage's own threads would not fit in, where it had
// ended with its runtime's "fatal error: newosproc" (status 2) or 126
// for the program's failed fork; in rx too, where its threads are in the
// group until its exec (it ran, or ended with "failed to create new OS
// thread", 2). The C init stage runs the program.
func TestFewPidsForGoInit(t *testing.T) {
	w := newWorld(t, rootUser)
	for _, mode := range []string{"sandbox", "rx"} {
		r := w.runProg(nocgoBinary(t), "--mode", mode, "--pids", "5", "--", "/bin/echo", "ran")
		if r.code != 125 || !strings.Contains(r.stderr, "give at least 16") || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("no cgo, %s: exit %d, stdout %q, stderr %.300q; want 125 and the least --pids", mode, r.code, r.stdout, r.stderr)
		}
	}
	if goInitStage() {
		return
	}
	if r := w.run("--mode", "rx", "--pids", "1", "--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" {
		t.Errorf("C init stage, rx, --pids 1: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := w.run("--pids", "5", "--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" {
		t.Errorf("C init stage: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// PID 1 and the program: one alone left the program no process (126).
	if r := w.run("--pids", "1", "--", "/bin/echo", "ran"); r.code != 125 || !strings.Contains(r.stderr, "give at least 2") {
		t.Errorf("C init stage, --pids 1: exit %d, stdout %q, stderr %q; want 125 and the least --pids", r.code, r.stdout, r.stderr)
	}
	if r := w.run("--pids", "2", "--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" {
		t.Errorf("C init stage, --pids 2: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
