//go:build linux && cgo

package seccomp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// runCmd runs a command and returns its combined output.
func runCmd(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
}

// TestEverydayPrograms runs ordinary developer work from a filtered
// process: a shell, git, Python, a Go program (this test binary), and a
// debugger. Every profile meant for real programs must leave them be.
func TestEverydayPrograms(t *testing.T) {
	for _, tool := range []string{"sh", "git", "python3"} {
		needTool(t, tool)
	}
	hello := []string{helloEnv + "=1"}
	for _, profile := range []string{"default", "strict", dockerDefault} {
		t.Run(filepath.Base(profile), func(t *testing.T) {
			inSubprocess(t, nil, func() {
				dir := t.TempDir()
				install(t, profile)
				cases := []struct {
					env  []string
					cmd  []string
					want string
				}{
					{nil, []string{"sh", "-c", "echo $((6*7)); ls / >/dev/null; date >/dev/null"}, "42"},
					{nil, []string{"git", "--version"}, "git version"},
					{nil, []string{"sh", "-c", "cd " + dir + " && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m first && git log --format=%s"}, "first"},
					{nil, []string{"python3", "-c", "import subprocess, threading, json; t = threading.Thread(target=print); t.start(); t.join(); print(json.dumps(subprocess.run(['true']).returncode))"}, "0"},
					{hello, []string{os.Args[0]}, "hello from Go"},
				}
				for _, c := range cases {
					out, err := runCmd(t, c.env, c.cmd[0], c.cmd[1:]...)
					if err != nil || !strings.Contains(out, c.want) {
						t.Errorf("%q: %v\n%s", c.cmd, err, out)
					}
				}
			})
		})
	}
}

// TestDebuggerWorks checks that ptrace of one's own children survives
// the default profile.
func TestDebuggerWorks(t *testing.T) {
	needTool(t, "strace")
	inSubprocess(t, nil, func() {
		install(t, "default")
		out, err := runCmd(t, nil, "strace", "-f", "-e", "trace=execve", "true")
		if err != nil || !strings.Contains(out, "execve(") {
			t.Errorf("strace under default: %v\n%s", err, out)
		}
	})
}

// TestNestedUserNamespace: a nested sandbox (a new user namespace) works
// under default and is refused under strict, both through unshare(2)
// (util-linux unshare) and through clone (Go's exec with CLONE_NEWUSER,
// which also tries clone3 first).
func TestNestedUserNamespace(t *testing.T) {
	needTool(t, "unshare")
	if out, err := newUserNS(t); err != nil {
		t.Skipf("user namespaces unavailable here even without a filter: %v\n%s", err, out)
	}
	for _, c := range []struct {
		profile string
		works   bool
	}{{"default", true}, {"strict", false}} {
		t.Run(c.profile, func(t *testing.T) {
			inSubprocess(t, nil, func() {
				install(t, c.profile)
				out, err := runCmd(t, nil, "unshare", "--user", "--map-root-user", "id", "-u")
				if works := err == nil && strings.TrimSpace(out) == "0"; works != c.works {
					t.Errorf("unshare --user under %s: %v\n%s", c.profile, err, out)
				}
				out, err = newUserNS(t)
				if works := err == nil; works != c.works {
					t.Errorf("clone(CLONE_NEWUSER) under %s: %v\n%s", c.profile, err, out)
				}
			})
		})
	}
}

func newUserNS(t *testing.T) (string, error) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// i386Probe is a 64-bit program that makes one i386 syscall through
// int $0x80 and prints the raw result: a route around filters that
// cover only the x86_64 ABI.
const i386Probe = `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
	long nr = strtol(argv[1], 0, 0), arg = strtol(argv[2], 0, 0), ret;
	__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(nr), "b"(arg), "c"(0), "d"(0) : "memory");
	printf("%ld\n", ret);
	return 0;
}
`

// i386 syscall numbers (arch/x86/entry/syscalls/syscall_32.tbl).
const (
	i386Getpid = 20
	i386Acct   = 51
)

func TestI386SyscallsFiltered(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("int 0x80 from a 64-bit program is an amd64 matter")
	}
	needTool(t, "gcc")
	bin := buildI386Probe(t)
	env := []string{"I386_PROBE=" + bin}
	if pid, err := strconv.Atoi(i386Call(t, bin, i386Getpid, 0)); err != nil || pid <= 0 {
		t.Skip("this kernel runs no i386 syscalls (no IA32 emulation)")
	}
	eperm, efault := strconv.Itoa(-1), strconv.Itoa(-14)
	cases := []struct {
		profile      string
		getpid, acct string // "pid" for a successful getpid
	}{
		{"none", "pid", efault},
		{"default", eperm, eperm}, // every i386 call: bad-arch action
		{"strict", eperm, eperm},
		{dockerDefault, "pid", eperm}, // i386 covered by the profile's own rules
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.profile), func(t *testing.T) {
			inSubprocess(t, env, func() {
				if c.profile == "none" && os.Geteuid() != 0 {
					t.Skip("acct needs root to get past its capability check")
				}
				install(t, c.profile)
				getpid := i386Call(t, bin, i386Getpid, 0)
				if n, err := strconv.Atoi(getpid); c.getpid == "pid" && (err != nil || n <= 0) || c.getpid != "pid" && getpid != c.getpid {
					t.Errorf("i386 getpid = %s, want %s", getpid, c.getpid)
				}
				if got := i386Call(t, bin, i386Acct, 1); got != c.acct {
					t.Errorf("i386 acct(bad pointer) = %s, want %s", got, c.acct)
				}
			})
		})
	}
}

func buildI386Probe(t *testing.T) string {
	if bin := os.Getenv("I386_PROBE"); bin != "" {
		return bin // the parent built it
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe")
	if err := os.WriteFile(src, []byte(i386Probe), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O0", "-o", bin, src).CombinedOutput(); err != nil {
		t.Skipf("gcc cannot build the probe: %v\n%s", err, out)
	}
	return bin
}

func i386Call(t *testing.T, bin string, nr, arg int) string {
	out, err := exec.Command(bin, fmt.Sprint(nr), fmt.Sprint(arg)).CombinedOutput()
	if err != nil {
		return "" // killed: e.g. no IA32 emulation
	}
	return strings.TrimSpace(string(out))
}
