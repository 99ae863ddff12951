//go:build linux

package rlimits

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The helper: when helperEnv is set, the test binary parses the limits in it
// (one per line), applies them to itself and execs sh -c $scriptEnv, the
// way the init stage applies limits right before it execs the program.
const (
	helperEnv = "OMEGA_RLIMITS_TEST_SPECS"
	scriptEnv = "OMEGA_RLIMITS_TEST_SCRIPT"
)

func TestMain(m *testing.M) {
	if specs, ok := os.LookupEnv(helperEnv); ok {
		runHelper(specs, os.Getenv(scriptEnv))
	}
	os.Exit(m.Run())
}

func runHelper(specs, script string) {
	ls, err := Parse(strings.Split(specs, "\n"))
	if err == nil {
		err = Apply(ls)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	err = unix.Exec("/bin/sh", []string{"sh", "-c", script}, os.Environ())
	fmt.Fprintln(os.Stderr, "helper: exec:", err)
	os.Exit(4)
}

// runWithLimits starts the helper with specs and returns sh's stdout; a
// helper that fails returns its stderr as the error.
func runWithLimits(t *testing.T, specs []string, script string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join(specs, "\n"), scriptEnv+"="+script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%v: %s", err, stderr.String())
	}
	return stdout.String(), nil
}

// procLimits maps the row titles of /proc/PID/limits to "SOFT HARD".
func procLimits(out string) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "Max ") || len(line) < 26 {
			continue
		}
		f := strings.Fields(line[26:])
		if len(f) >= 2 {
			m[strings.TrimSpace(line[:26])] = f[0] + " " + f[1]
		}
	}
	return m
}

var procTitles = map[string]string{
	"as": "Max address space", "core": "Max core file size", "cpu": "Max cpu time",
	"fsize": "Max file size", "memlock": "Max locked memory", "nofile": "Max open files",
	"nproc": "Max processes", "stack": "Max stack size",
	"msgqueue": "Max msgqueue size", "sigpending": "Max pending signals",
}

func TestApply(t *testing.T) {
	var nofile unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &nofile); err != nil {
		t.Fatal(err)
	}
	hardNofile := FormatValue(nofile.Max)
	tests := []struct {
		name  string
		specs []string
		want  map[string]string // resource → "SOFT HARD" as /proc shows it
	}{
		{"both", []string{"nofile=64"}, map[string]string{"nofile": "64 64"}},
		{"soft and hard", []string{"nofile=100:200"}, map[string]string{"nofile": "100 200"}},
		{"soft only keeps hard", []string{"nofile=50:"}, map[string]string{"nofile": "50 " + hardNofile}},
		{"hard only lowers a higher soft", []string{"nofile=:300"}, map[string]string{"nofile": "300 300"}},
		{"sizes and seconds", []string{"fsize=1M", "core=0:0", "cpu=10:20", "memlock=64K", "stack=4M:"},
			map[string]string{"fsize": "1048576 1048576", "core": "0 0", "cpu": "10 20", "memlock": "65536 65536"}},
		{"address space", []string{"as=4G:8G"}, map[string]string{"as": "4294967296 8589934592"}},
		{"nproc", []string{"nproc=500:1000"}, map[string]string{"nproc": "500 1000"}},
		{"sigpending and msgqueue", []string{"sigpending=100:200", "msgqueue=4K"},
			map[string]string{"sigpending": "100 200", "msgqueue": "4096 4096"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Only lower limits: raising a hard limit needs CAP_SYS_RESOURCE.
			ls, err := Parse(tt.specs)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range ls {
				var cur unix.Rlimit
				if err := unix.Getrlimit(l.Resource, &cur); err != nil {
					t.Fatal(err)
				}
				if !l.KeepHard && l.Hard > cur.Max {
					t.Skipf("%s: hard limit here is %d, below the test's %d", l.Name, cur.Max, l.Hard)
				}
			}
			out, err := runWithLimits(t, tt.specs, "echo ulimit-n=$(ulimit -n); cat /proc/self/limits")
			if err != nil {
				t.Fatal(err)
			}
			got := procLimits(out)
			for res, want := range tt.want {
				if got[procTitles[res]] != want {
					t.Errorf("%s: /proc/self/limits says %q, want %q\n%s", res, got[procTitles[res]], want, out)
				}
			}
			if w, ok := tt.want["nofile"]; ok {
				soft, _, _ := strings.Cut(w, " ")
				if !strings.Contains(out, "ulimit-n="+soft+"\n") {
					t.Errorf("sh's ulimit -n does not say %s:\n%s", soft, out)
				}
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	var nofile unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &nofile); err != nil {
		t.Fatal(err)
	}
	if nofile.Max == Unlimited || nofile.Max > 1<<20 {
		t.Skip("nofile hard limit too high to raise in a test")
	}
	above := fmt.Sprint(nofile.Max + 1)
	t.Run("soft above kept hard", func(t *testing.T) {
		_, err := runWithLimits(t, []string{"nofile=" + above + ":"}, "true")
		if err == nil || !strings.Contains(err.Error(), "would be above hard limit") {
			t.Errorf("err = %v, want 'would be above hard limit'", err)
		}
	})
	t.Run("raise hard", func(t *testing.T) {
		if hasCapSysResource(t) {
			t.Skip("CAP_SYS_RESOURCE: raising the hard limit is allowed here")
		}
		_, err := runWithLimits(t, []string{"nofile=" + above}, "true")
		if err == nil || !strings.Contains(err.Error(), "operation not permitted") ||
			!strings.Contains(err.Error(), "CAP_SYS_RESOURCE") {
			t.Errorf("err = %v, want EPERM with a CAP_SYS_RESOURCE hint", err)
		}
	})
}

func hasCapSysResource(t *testing.T) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		t.Fatal(err)
	}
	return data[unix.CAP_SYS_RESOURCE/32].Effective&(1<<(unix.CAP_SYS_RESOURCE%32)) != 0
}

func TestApplyEmpty(t *testing.T) {
	if err := Apply(nil); err != nil {
		t.Errorf("Apply(nil) = %v", err)
	}
}

// TestApplyEnforced checks that the kernel enforces what Apply set: a write
// past fsize gets SIGXFSZ (status 128+25) and stops at the limit.
func TestApplyEnforced(t *testing.T) {
	f := t.TempDir() + "/out"
	out, err := runWithLimits(t, []string{"fsize=4K"},
		fmt.Sprintf("head -c 8192 /dev/zero > '%s'; echo rc=$?; wc -c < '%s'", f, f))
	if err != nil {
		t.Fatal(err)
	}
	if want := "rc=153\n4096\n"; out != want {
		t.Errorf("sh printed %q, want %q", out, want)
	}
}

func TestResourceNumbers(t *testing.T) {
	want := map[string]int{
		"as": unix.RLIMIT_AS, "core": unix.RLIMIT_CORE, "cpu": unix.RLIMIT_CPU, "fsize": unix.RLIMIT_FSIZE,
		"memlock": unix.RLIMIT_MEMLOCK, "nofile": unix.RLIMIT_NOFILE, "nproc": unix.RLIMIT_NPROC, "stack": unix.RLIMIT_STACK,
		"msgqueue": unix.RLIMIT_MSGQUEUE, "sigpending": unix.RLIMIT_SIGPENDING,
	}
	for _, n := range Names() {
		if got := resourceNumber(n); got != want[n] {
			t.Errorf("resourceNumber(%q) = %d, want %d", n, got, want[n])
		}
	}
}
