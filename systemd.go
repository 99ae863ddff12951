package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omega-run/omega-run/sandbox"
)

// maxListenFDs matches --preserve-fds' bound.
const maxListenFDs = 1000

// serviceEnv is what systemd tells the process it starts as a service
// (ExecStart=omega-run … -- server): socket-activated fds (LISTEN_FDS for
// LISTEN_PID, sd_listen_fds(3)) and the notify socket (NOTIFY_SOCKET for
// the process SYSTEMD_EXEC_PID names, sd_notify(3)).
type serviceEnv struct {
	pid    int
	getenv func(string) string
	fdOpen func(int) bool
}

// apply passes socket activation and the notify socket on to the program
// when systemd meant them for this process, and returns warnings for what
// cannot reach it.
func (e serviceEnv) apply(o *sandbox.Options) []string {
	var warnings []string
	if n, ok := e.listenFDs(); ok {
		if fd := e.firstClosed(n); fd >= 0 {
			warnings = append(warnings, fmt.Sprintf("LISTEN_FDS=%d, but fd %d is not open: the socket-activated fds are not passed on", n, fd))
		} else {
			// The fds follow 0-2 like --preserve-fds; without them the
			// program would find LISTEN_FDS pointing at closed fds.
			o.PreserveFDs = max(o.PreserveFDs, n)
			o.Process.ListenPID = true
		}
	}
	// An inherited NOTIFY_SOCKET (a shell inside some service, an
	// agent's tool) is not ours to pass on.
	sock := e.getenv("NOTIFY_SOCKET")
	supervised := o.Mode == "" || o.Mode == sandbox.ModeSandbox || o.Process.Memory != "" || o.Process.Pids != "" || o.Process.CPUs != ""
	if sock != "" && e.getenv("SYSTEMD_EXEC_PID") == "" && supervised { // in place the program has the socket itself
		warnings = append(warnings, "NOTIFY_SOCKET is set without SYSTEMD_EXEC_PID (systemd before 248, or another service manager), "+
			"so omega-run cannot tell that it is meant for it and relays nothing: where it supervises the program, sd_notify(3) "+
			"reaches no service manager (start it as sh -c 'SYSTEMD_EXEC_PID=$$ exec omega-run …' to relay)")
	}
	if sock != "" && e.getenv("SYSTEMD_EXEC_PID") == strconv.Itoa(e.pid) {
		if strings.HasPrefix(sock, "/") || strings.HasPrefix(sock, "@") {
			o.Process.NotifySocket = sock
			// WatchdogSec=: the pings go through the relay, from a
			// program that must know the watchdog is its own.
			o.Process.WatchdogPID = e.getenv("WATCHDOG_PID") == strconv.Itoa(e.pid)
		} else {
			warnings = append(warnings, fmt.Sprintf("NOTIFY_SOCKET %q: omega-run relays socket paths and @abstract names only; where it supervises the program, sd_notify(3) reaches no service manager", sock))
		}
	}
	return warnings
}

// listenFDs is sd_listen_fds(3)'s check: LISTEN_FDS counts fds from 3
// on, meant for the process LISTEN_PID names.
func (e serviceEnv) listenFDs() (int, bool) {
	if e.getenv("LISTEN_PID") != strconv.Itoa(e.pid) {
		return 0, false
	}
	n, err := strconv.Atoi(e.getenv("LISTEN_FDS"))
	if err != nil || n < 1 || n > maxListenFDs {
		return 0, false
	}
	return n, true
}

// firstClosed is the first of fds 3…3+n-1 that is not open, or -1.
func (e serviceEnv) firstClosed(n int) int {
	for fd := 3; fd < 3+n; fd++ {
		if !e.fdOpen(fd) {
			return fd
		}
	}
	return -1
}
