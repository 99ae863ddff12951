package sandbox

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/nsexec"
)

// notifyKeys are the sd_notify(3) assignments the relay passes on: the
// service's state and its watchdog. Left out: MAINPID= (from a root
// sender systemd takes any pid, which it then signals on stop),
// NOTIFYACCESS=, the fd store, barriers and every fd.
var notifyKeys = []string{"READY", "RELOADING", "STOPPING", "STATUS", "ERRNO", "BUSERROR",
	"EXIT_STATUS", "MONOTONIC_USEC", "WATCHDOG", "WATCHDOG_USEC", "EXTEND_TIMEOUT_USEC"}

// notifyRelay is the program's NOTIFY_SOCKET while omega-run supervises
// it: the unit's main process is omega-run, whose messages systemd takes
// (NotifyAccess=main), and the program reaches no socket of the host.
type notifyRelay struct {
	conn *net.UnixConn
	dir  string
	to   string // the service manager's socket
}

// startNotifyRelay makes the relay for p, when systemd gave omega-run a
// notify socket (Process.NotifySocket), and points the program's
// NOTIFY_SOCKET at it. nil when there is nothing to relay.
func startNotifyRelay(p *plan, spec *nsexec.Spec, sandboxed bool) *notifyRelay {
	to := p.process.NotifySocket
	if to == "" || p.process.ClearEnv || slices.Contains(p.process.UnsetEnv, "NOTIFY_SOCKET") || hasEnvKey(p.process.SetEnv, "NOTIFY_SOCKET") {
		return nil
	}
	// In sandbox mode the program sees its private /tmp at /tmp.
	host, inside := os.TempDir(), os.TempDir()
	if sandboxed && spec.Mounts != nil && spec.Mounts.TmpFrom != "" {
		host, inside = spec.Mounts.TmpFrom, "/tmp"
	}
	r, err := listenRelay(host, spec.User)
	if err != nil {
		logrus.Warnf("NOTIFY_SOCKET: no relay for the program (%v): sd_notify(3) fails in it", err)
		return nil
	}
	path := filepath.Join(inside, filepath.Base(r.dir), "notify")
	if len(path) >= len(syscall.RawSockaddrUnix{}.Path) {
		logrus.Warnf("NOTIFY_SOCKET: the relay's path %s is too long for a socket address (TMPDIR?): sd_notify(3) fails in the program", path)
		r.close()
		return nil
	}
	r.to = to
	spec.Env = append(spec.Env, "NOTIFY_SOCKET="+path)
	go r.serve()
	return r
}

// listenRelay binds the relay's datagram socket in a new directory below
// base that only the program's user may enter.
func listenRelay(base string, user *nsexec.Credentials) (*notifyRelay, error) {
	dir, err := os.MkdirTemp(base, "omega-notify-")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "notify")
	conn, err := bindShort(dir, "notify")
	if err == nil && user != nil {
		for _, p := range []string{dir, path} {
			if err == nil {
				err = os.Lchown(p, int(user.UID), int(user.GID))
			}
		}
	}
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		os.RemoveAll(dir)
		return nil, err
	}
	return &notifyRelay{conn: conn, dir: dir}, nil
}

// bindShort binds a datagram socket at dir/name, through the directory's
// fd when the path is longer than a socket address holds (108 bytes; a
// data dir may lie deep).
func bindShort(dir, name string) (*net.UnixConn, error) {
	path := filepath.Join(dir, name)
	if len(path) < len(syscall.RawSockaddrUnix{}.Path) {
		return net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	short := "/proc/self/fd/" + strconv.Itoa(int(d.Fd())) + "/" + name
	return net.ListenUnixgram("unixgram", &net.UnixAddr{Name: short, Net: "unixgram"})
}

// serve passes each message on, filtered, until close.
func (r *notifyRelay) serve() {
	buf, oob := make([]byte, 4096), make([]byte, 4096)
	for {
		n, oobn, _, _, err := r.conn.ReadMsgUnix(buf, oob)
		if err != nil {
			return
		}
		closeRights(oob[:oobn]) // fds are for the fd store, which is not relayed
		if msg := filterNotify(buf[:n]); msg != nil {
			r.forward(msg)
		}
	}
}

func (r *notifyRelay) forward(msg []byte) {
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: r.to, Net: "unixgram"})
	if err != nil {
		logrus.Warnf("NOTIFY_SOCKET %s: %v", r.to, err)
		return
	}
	defer c.Close()
	if _, err := c.Write(msg); err != nil {
		logrus.Warnf("NOTIFY_SOCKET %s: %v", r.to, err)
	}
}

// close stops the relay and removes its socket.
func (r *notifyRelay) close() {
	if r == nil {
		return
	}
	r.conn.Close()
	os.RemoveAll(r.dir)
}

// filterNotify keeps the lines of msg that notifyKeys name; nil when none.
func filterNotify(msg []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(msg, []byte("\n")) {
		key, _, ok := strings.Cut(string(line), "=")
		if ok && slices.Contains(notifyKeys, key) {
			out = append(out, line)
		}
	}
	if out == nil {
		return nil
	}
	return bytes.Join(out, []byte("\n"))
}

// closeRights closes the fds a message carried.
func closeRights(oob []byte) {
	msgs, _ := syscall.ParseSocketControlMessage(oob)
	for _, m := range msgs {
		fds, _ := syscall.ParseUnixRights(&m)
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}
}
