//go:build linux && cgo

package seccomp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A filter cannot be removed once loaded, so every test that loads one
// runs in a re-executed test binary, as go-landlock's lltest does.

// subprocessEnv names the test a re-executed binary is to run for real.
const subprocessEnv = "OMEGA_SECCOMP_TEST_SUBPROCESS"

// Helper modes of the test binary, handled by TestMain.
const (
	helloEnv = "OMEGA_SECCOMP_TEST_HELLO"     // print hello: "a Go program"
	loopEnv  = "OMEGA_SECCOMP_TEST_LOOP"      // "<profile>:<syscall>:<n>": time a loop
	loopOut  = "OMEGA_SECCOMP_TEST_LOOP_NS: " // the result line
)

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(helloEnv) != "":
		fmt.Println("hello from Go")
		os.Exit(0)
	case os.Getenv(loopEnv) != "":
		os.Exit(syscallLoop(os.Getenv(loopEnv)))
	}
	// One line rather than eight tests failing on a missing file.
	if _, err := os.Stat(dockerDefaultPath); err != nil {
		fmt.Fprintf(os.Stderr, "seccomp tests: Docker's default profile, the project's shared test data, "+
			"is read from beside this clone (../shared/testdata): %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// inSubprocess runs fn in a re-executed test binary and returns what it
// printed, and true. In the parent it fails t when the child fails and
// skips t when the child skipped. In the child it calls fn and returns
// false: the caller must then not look at the output.
func inSubprocess(t *testing.T, env []string, fn func()) (string, bool) {
	t.Helper()
	if os.Getenv(subprocessEnv) == t.Name() {
		fn()
		return "", false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.v", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(append(os.Environ(), subprocessEnv+"="+t.Name()), env...)
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("subprocess: %v\n%s", err, out)
	case bytes.Contains(out, []byte("--- SKIP")):
		t.Skipf("subprocess skipped:\n%s", out)
	case !bytes.Contains(out, []byte("--- PASS")):
		t.Fatalf("subprocess ran no test:\n%s", out)
	}
	return string(out), true
}

// inChild reports whether this process is a re-executed test binary.
func inChild() bool { return os.Getenv(subprocessEnv) != "" }

// install loads a profile into the calling process, as the init stage
// does: no_new_privs first, then the filter.
func install(t testing.TB, nameOrPath string) {
	t.Helper()
	if err := installProfile(nameOrPath); err != nil {
		t.Fatal(err)
	}
}

func installProfile(nameOrPath string) error {
	p, err := Resolve(nameOrPath)
	if err != nil || p == nil {
		return err
	}
	prog, _, err := Compile(p)
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return prog.Install()
}

// syscallLoop is the child side of the per-syscall benchmark: it loads
// the profile, times n calls and prints the nanoseconds per call.
func syscallLoop(spec string) int {
	parts := strings.Split(spec, ":")
	n, err := strconv.Atoi(parts[len(parts)-1])
	if len(parts) != 3 || err != nil {
		fmt.Fprintln(os.Stderr, "bad", loopEnv, spec)
		return 2
	}
	if err := installProfile(parts[0]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	call := func() { unix.RawSyscall(unix.SYS_GETPPID, 0, 0, 0) }
	if parts[1] == "ioctl" {
		// TCGETS on /dev/null fails at once (ENOTTY): the cost is the
		// syscall path, including any ioctl argument checks.
		fd, err := unix.Open("/dev/null", unix.O_RDONLY, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		var v unix.Termios
		call = func() { unix.RawSyscall(unix.SYS_IOCTL, uintptr(fd), unix.TCGETS, uintptr(unsafe.Pointer(&v))) }
	}
	runtime.LockOSThread()
	start := time.Now()
	for range n {
		call()
	}
	fmt.Printf("%s%d\n", loopOut, time.Since(start).Nanoseconds())
	return 0
}

// TestInstallRejectedByKernel: a program the kernel refuses is an error,
// and nothing is installed. (In a subprocess, in case it were not so.)
func TestInstallRejectedByKernel(t *testing.T) {
	inSubprocess(t, nil, func() {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			t.Fatal(err)
		}
		jumpOut := &Program{BPF: encode([]insn{{code: opJa, k: 5}}, binary.NativeEndian)}
		err := jumpOut.Install()
		if err == nil || !strings.Contains(err.Error(), "install: invalid argument") {
			t.Errorf("Install of a jump out of the program: %v", err)
		}
		if s, _ := os.ReadFile("/proc/self/status"); !strings.Contains(string(s), "Seccomp:\t0") {
			t.Errorf("a filter got installed:\n%s", s)
		}
	})
}
