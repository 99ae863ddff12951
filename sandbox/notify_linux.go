package sandbox

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/nsexec"
)

// notifyRelay is the program's NOTIFY_SOCKET while omega-run supervises
// it: the unit's main process is omega-run, whose messages systemd takes
// (NotifyAccess=main), and the program reaches no socket of the host.
type notifyRelay struct {
	conn   *os.File      // the relay's socket, nonblocking, in the runtime's poller
	dir    string        // the relay's directory, on the host
	to     string        // the service manager's socket
	done   chan struct{} // closed when serve returns; nil before it starts
	warned atomic.Bool   // the manager's socket failed: later messages are dropped
}

// aLongTimeAgo is a deadline that has passed: it wakes a blocked read.
var aLongTimeAgo = time.Unix(1, 0)

// sunPath is the room in a socket address for a path.
var sunPath = len(syscall.RawSockaddrUnix{}.Path)

// startNotifyRelay makes the relay for p, when systemd gave omega-run a
// notify socket (Process.NotifySocket), and points the program's
// NOTIFY_SOCKET at it. nil when there is nothing to relay.
//
// Processes of the same user that reach the socket (other sandboxes
// sharing the private /tmp, unconfined ones) can send the same lines; a
// check of the sender cannot tell one that exits at once from the
// program's own helpers (systemd-notify), and they can change the data
// dir the service uses anyway.
func startNotifyRelay(p *plan, spec *nsexec.Spec, sandboxed bool) *notifyRelay {
	to := p.process.NotifySocket
	if !p.notifyRelayed() {
		return nil
	}
	base := os.TempDir()
	private := sandboxed && spec.Mounts != nil && spec.Mounts.TmpFrom != ""
	if private {
		base = spec.Mounts.TmpFrom // the private /tmp, canonical already
	} else if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real // a TMPDIR named through a link of the user's
	}
	removeStaleRelays(base, spec.User)
	r, err := listenRelay(base, spec.User)
	if err != nil {
		logrus.Warnf("NOTIFY_SOCKET: no relay for the program (%v): sd_notify(3) fails in it", err)
		return nil
	}
	// The data dir is in sight at its own path, mounts or not; a --user
	// may not enter it, and sees the private /tmp at /tmp instead.
	path := filepath.Join(r.dir, "notify")
	if private && (spec.User != nil || len(path) >= sunPath) {
		path = filepath.Join("/tmp", filepath.Base(r.dir), "notify")
	}
	if len(path) >= sunPath {
		logrus.Warnf("NOTIFY_SOCKET: the relay's path %s is too long for a socket address (TMPDIR?): sd_notify(3) fails in the program", path)
		r.close()
		return nil
	}
	r.to, r.done = to, make(chan struct{})
	spec.Env = append(spec.Env, "NOTIFY_SOCKET="+path)
	go r.serve()
	return r
}

// notifyRelayed tells whether the program is to get the relay as its
// NOTIFY_SOCKET: systemd gave omega-run one, and the caller neither
// cleared nor set the variable.
func (p *plan) notifyRelayed() bool {
	return p.process.NotifySocket != "" && !p.process.ClearEnv &&
		!slices.Contains(p.process.UnsetEnv, "NOTIFY_SOCKET") && !hasEnvKey(p.process.SetEnv, "NOTIFY_SOCKET")
}

// relayForRoot tells whether omega-run must stay as the parent of a
// program it would exec in place (rx without limits), to relay: the
// program would be the service's main process, and run as root its own
// MAINPID= (which the relay drops) makes systemd take any host process
// for the service's and signal it on stop, a kill Landlock's scoping keeps
// the program from. Another user's MAINPID= systemd takes only for a
// process of the unit.
func (p *plan) relayForRoot() bool {
	return p.notifyRelayed() && p.programUID() == 0
}

// listenRelay binds the relay's datagram socket in a new directory below
// base that only the program's user may enter. Every step goes through
// fds: other sandboxes of the user share the private /tmp, and a
// symlink swapped in must not move the socket or a chown.
func listenRelay(base string, user *nsexec.Credentials) (*notifyRelay, error) {
	bfd, err := openDirNoSymlinks(base)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: base, Err: err}
	}
	defer unix.Close(bfd)
	// getrandom(2) directly: crypto/rand would link in the FIPS module.
	var id [8]byte
	if _, err := unix.Getrandom(id[:], 0); err != nil {
		return nil, os.NewSyscallError("getrandom", err)
	}
	name := "omega-notify-" + hex.EncodeToString(id[:])
	if err := unix.Mkdirat(bfd, name, 0o700); err != nil {
		return nil, &os.PathError{Op: "mkdir", Path: filepath.Join(base, name), Err: err}
	}
	r := &notifyRelay{dir: filepath.Join(base, name)}
	if err := r.bind(bfd, name, user); err != nil {
		os.RemoveAll(r.dir)
		return nil, err
	}
	return r, nil
}

func (r *notifyRelay) bind(bfd int, name string, user *nsexec.Credentials) error {
	dfd, err := unix.Openat(bfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: r.dir, Err: err}
	}
	defer unix.Close(dfd)
	// Modes through fds, whatever the umask: fchmodat follows a symlink
	// that another sandbox could swap in for the name.
	if err := unix.Fchmod(dfd, 0o700); err != nil {
		return &os.PathError{Op: "chmod", Path: r.dir, Err: err}
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	// Through the directory's fd: no symlink swapped in since can move
	// it, and a deep data dir does not overflow the address.
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: "/proc/self/fd/" + strconv.Itoa(dfd) + "/notify"}); err != nil {
		unix.Close(fd)
		return os.NewSyscallError("bind", err)
	}
	r.conn = os.NewFile(uintptr(fd), "notify")
	// The umask (a unit's UMask=) must not lock the program out.
	err = chmodSocket(dfd, "notify", 0o600)
	if err == nil && user != nil {
		err = os.NewSyscallError("fchownat", unix.Fchownat(dfd, "notify", int(user.UID), int(user.GID), unix.AT_SYMLINK_NOFOLLOW))
		if err == nil {
			err = os.NewSyscallError("fchown", unix.Fchown(dfd, int(user.UID), int(user.GID)))
		}
	}
	if err != nil {
		r.conn.Close()
	}
	return err
}

// chmodSocket sets the mode of the socket name in dfd without following
// a symlink there: through an O_PATH fd of the node itself (a socket
// cannot be opened otherwise, and fchmodat has no AT_SYMLINK_NOFOLLOW
// before fchmodat2).
func chmodSocket(dfd int, name string, mode uint32) error {
	fd, err := unix.Openat(dfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return errors.New(name + ": not the socket just bound")
	}
	if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), mode); err != nil {
		return &os.PathError{Op: "chmod", Path: name, Err: err}
	}
	return nil
}

// removeStaleRelays removes the relay directories below base whose
// omega-run is gone (killed before it could clean up): their socket
// refuses connections. A directory still being made has no socket yet.
// Only directories of this launcher's user or of its --user (which a
// relay gets) are removed: base may be the host's /tmp, where any user
// could leave one of that name, with a file in the socket's place (which
// refuses connections too) and a million below it, for root to remove
// at every start.
func removeStaleRelays(base string, user *nsexec.Credentials) {
	dirs, _ := filepath.Glob(filepath.Join(base, "omega-notify-*"))
	for _, d := range dirs {
		var st unix.Stat_t
		if unix.Lstat(d, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR ||
			(int(st.Uid) != os.Geteuid() && (user == nil || st.Uid != user.UID)) {
			continue
		}
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return
		}
		err = unix.Connect(fd, &unix.SockaddrUnix{Name: filepath.Join(d, "notify")})
		unix.Close(fd)
		if errors.Is(err, unix.ECONNREFUSED) {
			os.RemoveAll(d)
		}
	}
}

// close stops the relay once the program is gone: it passes on what the
// program sent last (STOPPING=1, EXIT_STATUS=), then removes the socket.
func (r *notifyRelay) close() {
	if r == nil {
		return
	}
	if r.conn != nil {
		// The deadline wakes serve (the socket is in the runtime's
		// poller: nonblocking); without it, serve would block on.
		if r.done != nil && r.conn.SetReadDeadline(aLongTimeAgo) == nil {
			<-r.done
			r.drain()
		}
		r.conn.Close()
	}
	os.RemoveAll(r.dir)
}

// drain handles what is still queued, without waiting for more.
func (r *notifyRelay) drain() {
	raw, err := r.conn.SyscallConn()
	if err != nil {
		return
	}
	buf, oob := make([]byte, 4096), make([]byte, 4096)
	end := time.Now().Add(time.Second) // a manager that stops reading
	raw.Control(func(fd uintptr) {
		for i := 0; i < 1024 && time.Now().Before(end); i++ {
			n, oobn, flags, _, err := unix.Recvmsg(int(fd), buf, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
			if err != nil {
				return
			}
			r.handle(buf[:n], oob[:oobn], flags)
		}
	})
}

// serve passes each message on until close.
func (r *notifyRelay) serve() {
	defer close(r.done)
	raw, err := r.conn.SyscallConn()
	if err != nil {
		return
	}
	buf, oob := make([]byte, 4096), make([]byte, 4096)
	for {
		var n, oobn, flags int
		var rerr error
		err := raw.Read(func(fd uintptr) bool {
			n, oobn, flags, _, rerr = unix.Recvmsg(int(fd), buf, oob, unix.MSG_CMSG_CLOEXEC)
			return rerr != unix.EAGAIN
		})
		if err != nil || (rerr != nil && rerr != unix.EINTR) {
			return // closed (deadline) or broken
		}
		if rerr == nil {
			r.handle(buf[:n], oob[:oobn], flags)
		}
	}
}

// handle passes one message on, filtered; a message cut short is
// dropped, as systemd drops it, and fds are closed.
func (r *notifyRelay) handle(msg, oob []byte, flags int) {
	closeRights(oob)
	if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 {
		return
	}
	if out := filterNotify(msg); out != nil {
		r.forward(out)
	}
}

func (r *notifyRelay) forward(msg []byte) {
	if r.warned.Load() {
		return // each further try would wait its second too
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err == nil {
		// A manager that stops reading must not hold omega-run's exit.
		err = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &unix.Timeval{Sec: 1})
		if err == nil {
			err = unix.Sendto(fd, msg, 0, &unix.SockaddrUnix{Name: r.to}) // @name: abstract
		}
		unix.Close(fd)
	}
	if err != nil && !r.warned.Swap(true) {
		logrus.Warnf("NOTIFY_SOCKET %s: %v (the program's later messages are dropped alike)", r.to, err)
	}
}

// closeRights closes the fds a message carried (a BARRIER=1's fd: its
// sender, systemd-notify, waits for that close).
func closeRights(oob []byte) {
	msgs, _ := syscall.ParseSocketControlMessage(oob)
	for _, m := range msgs {
		if fds, err := syscall.ParseUnixRights(&m); err == nil {
			for _, fd := range fds {
				syscall.Close(fd)
			}
		}
	}
}
