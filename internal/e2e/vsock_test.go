//go:build linux

package e2e

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNetNoneVsock: vsock (AF_VSOCK) keeps one port space across network
// namespaces, so a program run with --net none that listens on a vsock
// port holds that port on the host too (and could reach the hypervisor,
// CID 2). Its socket() fails with EAFNOSUPPORT under --net none whatever
// the profile (a custom one that allows everything too), and under the
// built-in profiles always; the test binds the same port outside while
// the program runs. The controls: rwx, and a custom profile with --net
// host, which the user chose.
func TestNetNoneVsock(t *testing.T) {
	if fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0); err != nil {
		t.Skipf("no vsock in this kernel (socket(AF_VSOCK): %v)", err)
	} else {
		unix.Close(fd)
	}
	cases := []struct {
		name   string
		args   []string
		custom bool // --seccomp with a profile that allows everything
		holds  bool // the program gets the port
	}{
		{"sandbox/none", []string{"--mode", "sandbox", "--net", "none"}, false, false},
		{"rx/none", []string{"--mode", "rx", "--net", "none"}, false, false},
		{"sandbox/none/custom", []string{"--mode", "sandbox", "--net", "none"}, true, false},
		{"rx/none/custom", []string{"--mode", "rx", "--net", "none"}, true, false},
		{"sandbox/host", []string{"--mode", "sandbox", "--net", "host"}, false, false},
		{"rx/host", []string{"--mode", "rx", "--net", "host"}, false, false},
		{"sandbox/host/custom", []string{"--mode", "sandbox", "--net", "host"}, true, true},
		{"rwx", []string{"--mode", "rwx"}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				args := c.args
				if c.custom {
					prof := filepath.Join(w.home, "allow-all.json")
					writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}`)
					args = append(args, "--seccomp", prof)
				}
				held, out := vsockHeld(t, w, args)
				if held != c.holds {
					t.Errorf("%s: the program held its vsock port on the host: %v, want %v (probe: %s)", u.name, held, c.holds, out)
				}
				if !c.holds && !strings.Contains(out, "address family not supported") {
					t.Errorf("%s: probe said %q, want EAFNOSUPPORT", u.name, out)
				}
			}
		})
	}
}

// vsockHeld runs the vsock-listen probe under omega-run with args and
// reports whether binding its port outside failed with EADDRINUSE while
// it ran, and what the probe printed after "ready".
func vsockHeld(t *testing.T, w *world, args []string) (bool, string) {
	t.Helper()
	port := 20000 + rand.IntN(40000)
	done := filepath.Join(w.outside, "vsock-done")
	c := w.cmd(t.Context(), append(args, "--", probe, "vsock-listen", strconv.Itoa(port), done)...)
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || sc.Text() != "ready" {
		c.Wait()
		t.Fatalf("probe did not get ready: %q, stderr %s", sc.Text(), stderr.String())
	}
	fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = unix.Bind(fd, &unix.SockaddrVM{CID: unix.VMADDR_CID_ANY, Port: uint32(port)})
	unix.Close(fd)
	writeFile(t, done, "")
	var rest strings.Builder
	for sc.Scan() {
		rest.WriteString(sc.Text() + "\n")
	}
	c.Wait()
	if err != nil && !errors.Is(err, unix.EADDRINUSE) {
		t.Fatalf("binding vsock port %d outside: %v", port, err)
	}
	return err != nil, rest.String() + stderr.String()
}

// TestNetNoneVsockNoUserns: without user namespaces sandbox mode falls
// back to the host's namespaces, where the host guard goes in front of
// the --net none guard; vsock stays refused, under a custom profile that
// allows everything too.
func TestNetNoneVsockNoUserns(t *testing.T) {
	if fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0); err != nil {
		t.Skipf("no vsock in this kernel (socket(AF_VSOCK): %v)", err)
	} else {
		unix.Close(fd)
	}
	for _, u := range users {
		w := newWorld(t, u)
		prof := filepath.Join(w.home, "allow-all.json")
		writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}`)
		// The file the probe waits for exists: it reports at once.
		r := w.runNoUserns(u.uid,
			bin, "--net", "none", "--seccomp", prof, "--", probe, "vsock-listen", strconv.Itoa(20000+rand.IntN(40000)), prof)
		if !strings.Contains(r.stderr, "user namespaces are unavailable") {
			t.Fatalf("%s: not the fallback: stderr %q", u.name, r.stderr)
		}
		if !strings.Contains(r.stdout, "address family not supported") {
			t.Errorf("%s: probe said %q, want EAFNOSUPPORT", u.name, r.stdout)
		}
	}
}

// TestNetNoneIOUring: with --net none, io_uring_setup fails (ENOSYS) under
// a profile that allows everything, in both modes and both init stages: a
// ring's IORING_OP_SOCKET makes a vsock socket with no socket(2) call for
// the --net none guard to see (where there is no connect broker, whose
// filter refuses io_uring too).
func TestNetNoneIOUring(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			prof := filepath.Join(w.home, "allow-all.json")
			writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}`)
			r := w.run("--mode", mode, "--net", "none", "--seccomp", prof, "--", probe, "io-uring")
			if r.code != 1 || !strings.Contains(r.stdout, "function not implemented") {
				t.Errorf("exit %d, stdout %q; want io_uring_setup refused with ENOSYS", r.code, r.stdout)
			}
		})
	}
}
