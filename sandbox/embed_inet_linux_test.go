package sandbox_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/omega-run/omega-run/sandbox"
)

// fastOpenFromStdin disconnects the TCP socket on stdin (connect to
// AF_UNSPEC: a listener becomes a closed socket, still in the host's
// network namespace) and connects it to the address in argv by TCP Fast
// Open's send, which Landlock's TCP rule does not see.
const fastOpenFromStdin = `
import ctypes, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
unspec = (ctypes.c_char * 16)()
if libc.connect(0, unspec, 16) != 0:
    sys.exit("disconnect: errno %d" % ctypes.get_errno())
s = socket.socket(fileno=0)
s.sendto(b"fastopen\n", socket.MSG_FASTOPEN, (sys.argv[1], int(sys.argv[2])))
`

// TestCommandNetNoneInetStdin: an embedder's command under Net none
// whose stdin is an internet socket of the host's (a socket-activated
// listener handed on) gets rx's host guard, as the CLI's launch does:
// CommandContext builds the filter before the caller sets cmd.Stdin, so
// it cannot look. Without the guard the program connected to the host's
// loopback.
func TestCommandNetNoneInetStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	activated, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer activated.Close()
	stdin, err := activated.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	target, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	host, port, _ := net.SplitHostPort(target.Addr().String())
	o := sandbox.Options{Mode: sandbox.ModeSandbox, Net: sandbox.NetNone, DataDir: t.TempDir()}
	cmd, err := o.CommandContext(context.Background(), py, "-c", fastOpenFromStdin, host, port)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stderr = stdin, os.Stderr
	if err := sandbox.Start(cmd); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	// A connection made is in the accept queue by now.
	target.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
	if conn, aerr := target.Accept(); aerr == nil {
		conn.Close()
		t.Errorf("the program connected to the host's loopback through the socket on its stdin (its exit: %v)", err)
	}
}
