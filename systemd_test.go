package main

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

func TestServiceEnv(t *testing.T) {
	const sock = "/run/systemd/notify"
	cases := []struct {
		name     string
		env      map[string]string
		open     int // fds 3…3+open-1 are open
		preserve int
		// want
		wantFDs   int
		listenPID bool
		notify    string
		watchdog  bool
		warn      string
	}{
		{name: "nothing"},
		{name: "socket activation", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2"}, open: 2, wantFDs: 2, listenPID: true},
		{name: "more fds asked for", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2"}, open: 5, preserve: 5, wantFDs: 5, listenPID: true},
		{name: "another process's fds", env: map[string]string{"LISTEN_PID": "7", "LISTEN_FDS": "2"}, open: 2},
		{name: "no LISTEN_PID", env: map[string]string{"LISTEN_FDS": "2"}, open: 2},
		{name: "zero fds", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "0"}},
		{name: "too many fds", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "1001"}, open: 1001},
		{name: "garbage fds", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2x"}, open: 2},
		{name: "fds not open", env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "3"}, open: 1, warn: "fd 4 is not open"},
		{name: "notify socket", env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock}, notify: sock},
		{name: "abstract notify socket", env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": "@sd"}, notify: "@sd"},
		{name: "inherited notify socket", env: map[string]string{"SYSTEMD_EXEC_PID": "7", "NOTIFY_SOCKET": sock}},
		{name: "no SYSTEMD_EXEC_PID", env: map[string]string{"NOTIFY_SOCKET": sock}, warn: "systemd before 248"},
		{name: "watchdog", env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock, "WATCHDOG_PID": "42", "WATCHDOG_USEC": "1000000"}, notify: sock, watchdog: true},
		{name: "another process's watchdog", env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock, "WATCHDOG_PID": "7"}, notify: sock},
		{name: "watchdog without a notify socket", env: map[string]string{"WATCHDOG_PID": "42"}},
		{name: "vsock", env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": "vsock:2:1234"}, warn: "relays socket paths"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := serviceEnv{
				pid:    42,
				getenv: func(k string) string { return c.env[k] },
				fdOpen: func(fd int) bool { return fd >= 3 && fd < 3+c.open },
			}
			o := sandbox.Options{PreserveFDs: c.preserve}
			warnings := e.apply(&o)
			if o.PreserveFDs != max(c.wantFDs, c.preserve) || o.Process.ListenPID != c.listenPID {
				t.Errorf("PreserveFDs %d, ListenPID %v; want %d, %v", o.PreserveFDs, o.Process.ListenPID, max(c.wantFDs, c.preserve), c.listenPID)
			}
			if o.Process.WatchdogPID != c.watchdog {
				t.Errorf("WatchdogPID %v, want %v", o.Process.WatchdogPID, c.watchdog)
			}
			if o.Process.NotifySocket != c.notify {
				t.Errorf("NotifySocket %q, want %q", o.Process.NotifySocket, c.notify)
			}
			got := strings.Join(warnings, "\n")
			if (c.warn == "") != (got == "") || !strings.Contains(got, c.warn) {
				t.Errorf("warnings %q, want one with %q", got, c.warn)
			}
		})
	}
}
