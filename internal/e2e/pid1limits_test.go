//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// setPID1Limits sets RLIMIT_CPU and RLIMIT_NOFILE on PID 1 and on each
// of its threads (a prlimit on a thread's tid sets its process's limits),
// once the test has had its chance to replace the config file and PID 1
// has its first thread (the C connect broker's starts meanwhile).
const setPID1Limits = `echo ready; read line
i=0; while [ $(ls /proc/1/task | wc -l) -lt 2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
echo "tasks $(ls /proc/1/task | wc -l)"
for t in 1 $(ls /proc/1/task); do
	prlimit --pid $t --cpu=1:1 && echo "set cpu $t"
	prlimit --pid $t --nofile=0:0 && echo "set nofile $t"
done
prlimit --pid 1 --nofile >/dev/null && echo read
exit 0`

// TestPID1LimitsRefused: in sandbox mode the program shares a pid
// namespace and uid with PID 1, and prlimit needs only the same uid:
// RLIMIT_CPU 1 killed PID 1 (omega-run exited 137) and RLIMIT_NOFILE 0
// broke it (125), losing its after-run checks, notably the warning that
// a read-only bind was replaced on the host. Setting PID 1's (or its
// threads') limits fails under the built-in profile and a custom one
// that allows everything (and in a CGO_ENABLED=0 build); reading them still works, the run ends with
// the program's status, and the replaced config file is still reported.
func TestPID1LimitsRefused(t *testing.T) {
	for _, u := range users {
		for _, prof := range []string{"default", "custom", "nocgo"} {
			t.Run(u.name+"/"+prof, func(t *testing.T) {
				w := newWorld(t, u)
				cfg := filepath.Join(w.dataDir, "config.toml")
				writeFile(t, cfg, "[sandbox]\n")
				allow := filepath.Join(w.dataDir, "allow.json")
				writeFile(t, allow, `{"defaultAction":"SCMP_ACT_ALLOW"}`)
				chownTree(t, w.dataDir, u)
				launcher, seccomp := bin, prof
				switch prof {
				case "custom":
					seccomp = allow
				case "nocgo": // the Go init stage, built-in profile (no libseccomp for a custom one)
					launcher, seccomp = nocgoBinary(t), "default"
				}
				stdout, stderr, code := pid1LimitsRun(t, w, launcher, seccomp, cfg)
				if code != 0 || strings.Contains(stdout, "set ") || !strings.Contains(stdout, "read\n") {
					t.Errorf("exit %d; stdout %q; want 0, no limit of PID 1 set, its limits read (stderr %q)", code, stdout, stderr)
				}
				if n, _ := strconv.Atoi(strings.TrimSpace(textBetween(stdout, "tasks ", "\n"))); n < 2 {
					t.Errorf("stdout %q: PID 1's threads not seen", stdout)
				}
				if !strings.Contains(stderr, cfg+" was replaced on the host") {
					t.Errorf("stderr %q: the replaced config file is not reported", stderr)
				}
			})
		}
	}
}

// pid1LimitsRun runs setPID1Limits with launcher under --seccomp seccomp, replacing
// cfg on the host once the program is ready, as an editor saves it.
func pid1LimitsRun(t *testing.T, w *world, launcher, seccomp, cfg string) (string, string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := w.cmdOf(ctx, launcher, "--seccomp", seccomp, "--", "/bin/sh", "-c", setPID1Limits)
	stdin, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	if line, _ := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("the program said %q (stderr %q)", line, errb.String())
	}
	writeFile(t, cfg+".new", "[sandbox]\nnet = \"none\"\n")
	if err := os.Rename(cfg+".new", cfg); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	rest, _ := io.ReadAll(r)
	c.Wait()
	return string(rest), errb.String(), c.ProcessState.ExitCode()
}

func textBetween(s, from, to string) string {
	_, after, _ := strings.Cut(s, from)
	before, _, _ := strings.Cut(after, to)
	return before
}
