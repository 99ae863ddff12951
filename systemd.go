package main

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/omega-run/omega-run/profiles"
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
	stat   func(string) (fs.FileInfo, error)
}

// apply passes socket activation and the notify socket on to the program
// when systemd meant them for this process. It returns warnings for what
// cannot reach the program.
func (e serviceEnv) apply(o *sandbox.Options) []string {
	var warnings []string
	if n, ok := e.listenFDs(); ok {
		// The fds follow 0-2 like --preserve-fds; without them the
		// program would find LISTEN_FDS pointing at closed fds.
		o.PreserveFDs = max(o.PreserveFDs, n)
		o.Process.ListenPID = true
	}
	if e.getenv("SYSTEMD_EXEC_PID") != strconv.Itoa(e.pid) {
		return warnings // an inherited NOTIFY_SOCKET is not ours to pass on
	}
	sock := e.getenv("NOTIFY_SOCKET")
	switch {
	case sock == "" || o.Mode == profiles.ModeRWX:
	case strings.HasPrefix(sock, "@"):
		warnings = append(warnings, fmt.Sprintf("NOTIFY_SOCKET %s is an abstract socket, which Landlock keeps the program from reaching: sd_notify(3) fails in it (Type=notify units time out); give the service manager a socket path", sock))
	case o.Mode == profiles.ModeSandbox && !slices.Contains(o.AllowSocket, sock):
		// Sandbox mode hides /run and brokers connect(2): the socket
		// must be allowed by name, as --allow-socket does.
		if st, err := e.stat(sock); err != nil || st.Mode()&fs.ModeSocket == 0 {
			warnings = append(warnings, fmt.Sprintf("NOTIFY_SOCKET %s is not a unix socket here: not passed into the sandbox, sd_notify(3) fails in it", sock))
			break
		}
		o.AllowSocket = append(o.AllowSocket, sock)
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

func hostServiceEnv() serviceEnv {
	return serviceEnv{pid: os.Getpid(), getenv: os.Getenv, stat: os.Stat}
}
