//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWorkdirRelativeSockets: a host socket bound by a relative path
// (bind("app.sock") by a server started in the directory) is listed in
// /proc/net/unix without its directory, so no mask covered it where the
// sandbox keeps a working directory below the host's /tmp or /run in
// sight (keepWorkdir): started there, the program sent it a datagram by
// the same relative name, as it could before the directory was kept.
// Now a relative name in the table is looked for in the kept directory
// and masked there. rwx is the control.
func TestWorkdirRelativeSockets(t *testing.T) {
	for _, base := range []string{"/tmp", "/run"} {
		if fi, err := os.Lstat(base); err != nil || !fi.IsDir() {
			continue
		}
		for _, u := range users {
			for _, mode := range []string{"rwx", "sandbox"} {
				t.Run(base+"/"+u.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					wd := hostDirIn(t, base, "omega-e2e-relwd-", u)
					mustMkdir(t, filepath.Join(wd, "sub"))
					for _, name := range []string{"rel.sock", "sub/deep.sock"} {
						c := exec.Command(probe, "dgram-recv", name)
						c.Dir = wd // bound relatively, by a server started there
						got := recvBy(t, c)
						r := w.runIn(wd, "--mode", mode, "--", probe, "send-dgram", name)
						if g, want := got(), mode == "rwx"; g != want {
							t.Errorf("%s: got through: %v, want %v (exit %d, stdout %q, stderr %q)", name, g, want, r.code, r.stdout, r.stderr)
						}
					}
				})
			}
		}
	}
}

// TestWorkdirNewlineSockets: /proc/net/unix ends an entry's line at a
// newline in its path, so a socket in a kept working directory whose name
// has one was listed under a path that does not exist (the name's first
// line), and no mask covered it: a datagram by its relative name got
// through. The kept directory is now read for sockets, as one where a
// listed socket moved. rwx is the control.
func TestWorkdirNewlineSockets(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				wd := hostDirIn(t, "/tmp", "omega-e2e-nl\nwd-", u)
				got, send := boundSocket(t, "dgram", filepath.Join(wd, "in.sock"))
				r := w.runIn(wd, "--mode", mode, "--", probe, send, "in.sock")
				if g, want := got(), mode == "rwx"; g != want {
					t.Errorf("got through: %v, want %v (exit %d, stdout %q, stderr %q)", g, want, r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestWorkdirHostFIFO: the kept working directory is read-only, but it
// lies below the sandbox's /tmp or /run, which Landlock lets the program
// write in, and a FIFO is no write to the file system: the program wrote
// into a host FIFO there, which a host process read. The FIFOs in the kept
// directory are masked now. rwx is the control.
func TestWorkdirHostFIFO(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				wd := hostDirIn(t, "/tmp", "omega-e2e-fifo-", u)
				fifo := filepath.Join(wd, "ctl")
				if err := syscall.Mkfifo(fifo, 0o666); err != nil {
					t.Fatal(err)
				}
				os.Chmod(fifo, 0o666)
				got := make(chan string, 1)
				go func() { // the host's reader; the open waits for a writer
					f, err := os.OpenFile(fifo, os.O_RDWR, 0)
					if err != nil {
						got <- err.Error()
						return
					}
					defer f.Close()
					f.SetReadDeadline(time.Now().Add(10 * time.Second))
					b := make([]byte, 64)
					n, _ := f.Read(b)
					got <- string(b[:n])
				}()
				r := w.runIn(wd, "--mode", mode, "--", "/bin/sh", "-c", "echo through > ctl")
				var g string
				select {
				case g = <-got:
				case <-time.After(500 * time.Millisecond):
				}
				if through := strings.Contains(g, "through"); through != (mode == "rwx") {
					t.Errorf("got through: %v, want %v (exit %d, stderr %q)", through, mode == "rwx", r.code, r.stderr)
				}
			})
		}
	}
}
