//go:build linux

package e2e

import (
	"net"
	"os"
	"strings"
	"testing"
)

// TestExplainHostGuardWhy: sandbox mode with --net none takes rx's host
// guard when the program is handed an internet socket (the host's
// network namespace's); explain said it was there "in the host's
// namespaces", which the sandbox's program is not in. It says why now,
// in the summary and in --full; rx, in the host's namespaces, is the
// control.
func TestExplainHostGuardWhy(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			for _, full := range []string{"--full=false", "--full"} {
				r := w.runWith(nil, []*os.File{f}, bin, "explain", full, "--net", "none", "--preserve-fds", "1")
				if r.code != 0 || strings.Contains(r.stdout, "host's namespaces") || strings.Contains(r.stdout, "host's pid and network namespaces") ||
					!strings.Contains(r.stdout, "handed an internet") {
					t.Errorf("sandbox %s: exit %d, stdout %q; want the guard said to be there for the internet socket handed in", full, r.code, r.stdout)
				}
				r = w.runWith(nil, []*os.File{f}, bin, "explain", full, "--mode", "rx", "--net", "none", "--preserve-fds", "1")
				if r.code != 0 || !strings.Contains(r.stdout, "host's") || strings.Contains(r.stdout, "handed an internet") {
					t.Errorf("rx %s: exit %d, stdout %q; want the host's namespaces said", full, r.code, r.stdout)
				}
			}
		})
	}
}
