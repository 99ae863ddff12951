package nsexec

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Credentials are the ids the program runs as (--user, --group,
// --groups); nil keeps the caller's.
type Credentials struct {
	UID, GID uint32
	Groups   []uint32 // supplementary groups; empty clears them
}

// switchUser sets the ids of every thread (the Go runtime and libc
// broadcast set*id), so nothing in this process stays privileged. The
// groups too: syscall.Setgroups, as unix.Setgroups is this thread's only.
func switchUser(c *Credentials) error {
	groups := make([]int, len(c.Groups))
	for i, g := range c.Groups {
		groups[i] = int(g)
	}
	if err := syscall.Setgroups(groups); err != nil {
		return &os.SyscallError{Syscall: "setgroups", Err: err}
	}
	if err := unix.Setresgid(int(c.GID), int(c.GID), int(c.GID)); err != nil {
		return &os.SyscallError{Syscall: "setresgid", Err: err}
	}
	if err := unix.Setresuid(int(c.UID), int(c.UID), int(c.UID)); err != nil {
		return &os.SyscallError{Syscall: "setresuid", Err: err}
	}
	return nil
}

// parentWatch tells whether omega-run died while ids changed. Changing
// ids clears the parent-death signal; setting it again cannot tell
// whether the parent died in between, and in a new pid namespace getppid
// says 0. So the host's /proc/self/status is held from before the mounts
// cover it, and its PPid is read again after the signal is set.
type parentWatch struct {
	status *os.File
	ppid   int
}

// initParent is the init stage's watch, taken before its mounts; an exec
// in place takes its own in confine.
var initParent *parentWatch

// watchParent notes the parent; without a /proc it notes nothing and gone
// says no, as before the watch.
func watchParent() *parentWatch {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return nil
	}
	p := &parentWatch{status: f}
	p.ppid = p.read()
	return p
}

func (p *parentWatch) read() int {
	var b [1024]byte
	n, _ := p.status.ReadAt(b[:], 0)
	_, rest, ok := bytes.Cut(b[:n], []byte("\nPPid:"))
	if !ok {
		return -1
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	ppid, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil {
		return -1
	}
	return ppid
}

// gone tells whether this process has been reparented since the watch
// began, and ends the watch.
func (p *parentWatch) gone() bool {
	if p == nil {
		return false
	}
	now := p.read()
	p.status.Close()
	// 0: a reaper this /proc cannot name; -1 (unreadable) tells nothing.
	return p.ppid > 0 && now >= 0 && now != p.ppid
}
