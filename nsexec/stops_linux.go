package nsexec

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// newSpecPipe is the launcher's end of a spec socket (or pipe), set
// non-blocking so that Stops waits in the netpoller, not in a system call
// that would keep a thread (and the runtime's monitor) busy for the run.
func newSpecPipe(fd int, ns Namespaces, keepFDs int) *SpecPipe {
	_ = unix.SetNonblock(fd, true)
	return &SpecPipe{w: os.NewFile(uintptr(fd), "omega-run-spec"), ns: ns, keepFDs: keepFDs}
}

// shutdownWrite ends the spec on a socket and keeps it open for reading.
func shutdownWrite(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Shutdown(int(fd), unix.SHUT_WR) }); err != nil {
		return err
	}
	return serr
}

// Stops calls onStop with the signal of each stop of the program the init
// stage reports (PID 1's, cinit_pid1.c's report_job), until the init stage is
// gone, then closes the socket. It does nothing before a Send.
func (p *SpecPipe) Stops(onStop func(sig syscall.Signal)) {
	if !p.sent {
		return
	}
	defer p.w.Close()
	var m [2]byte
	for {
		if _, err := io.ReadFull(p.w, m[:]); err != nil {
			return
		}
		if m[0] == 'S' {
			onStop(syscall.Signal(m[1]))
		}
	}
}
