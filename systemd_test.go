package main

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
)

type fakeInfo struct{ mode fs.FileMode }

func (f fakeInfo) Name() string       { return "notify" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

func TestServiceEnv(t *testing.T) {
	const sock = "/run/systemd/notify"
	cases := []struct {
		name     string
		mode     profiles.Mode
		env      map[string]string
		preserve int
		allowed  []string // AllowSocket before
		// want
		wantFDs    int
		listenPID  bool
		wantSocket bool
		warn       string
	}{
		{name: "nothing", mode: profiles.ModeSandbox},
		{name: "socket activation", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2"}, wantFDs: 2, listenPID: true},
		{name: "more fds asked for", mode: profiles.ModeRX, env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2"}, preserve: 5, wantFDs: 5, listenPID: true},
		{name: "another process's fds", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_PID": "7", "LISTEN_FDS": "2"}},
		{name: "no LISTEN_PID", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_FDS": "2"}},
		{name: "zero fds", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "0"}},
		{name: "too many fds", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "1001"}},
		{name: "garbage fds", mode: profiles.ModeSandbox, env: map[string]string{"LISTEN_PID": "42", "LISTEN_FDS": "2x"}},
		{name: "notify, sandbox", mode: profiles.ModeSandbox, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock}, wantSocket: true},
		{name: "notify already allowed", mode: profiles.ModeSandbox, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock}, allowed: []string{sock}, wantSocket: true},
		{name: "notify, rx reaches it anyway", mode: profiles.ModeRX, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": sock}},
		{name: "notify, rwx", mode: profiles.ModeRWX, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": "@abstract"}},
		{name: "inherited notify socket", mode: profiles.ModeSandbox, env: map[string]string{"SYSTEMD_EXEC_PID": "7", "NOTIFY_SOCKET": sock}},
		{name: "no SYSTEMD_EXEC_PID", mode: profiles.ModeSandbox, env: map[string]string{"NOTIFY_SOCKET": sock}},
		{name: "abstract notify socket", mode: profiles.ModeRX, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": "@sd"}, warn: "abstract socket"},
		{name: "not a socket", mode: profiles.ModeSandbox, env: map[string]string{"SYSTEMD_EXEC_PID": "42", "NOTIFY_SOCKET": "/run/file"}, warn: "not a unix socket"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := serviceEnv{
				pid:    42,
				getenv: func(k string) string { return c.env[k] },
				stat: func(p string) (fs.FileInfo, error) {
					if p == sock {
						return fakeInfo{fs.ModeSocket | 0o777}, nil
					}
					if p == "/run/file" {
						return fakeInfo{0o644}, nil
					}
					return nil, os.ErrNotExist
				},
			}
			o := sandbox.Options{Mode: c.mode, PreserveFDs: c.preserve, AllowSocket: slices.Clone(c.allowed)}
			warnings := e.apply(&o)
			if o.PreserveFDs != max(c.wantFDs, c.preserve) || o.Process.ListenPID != c.listenPID {
				t.Errorf("PreserveFDs %d, ListenPID %v; want %d, %v", o.PreserveFDs, o.Process.ListenPID, max(c.wantFDs, c.preserve), c.listenPID)
			}
			n := 0
			for _, s := range o.AllowSocket {
				if s == sock {
					n++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[c.wantSocket]; n != want {
				t.Errorf("AllowSocket %q: the notify socket %d times, want %d", o.AllowSocket, n, want)
			}
			got := strings.Join(warnings, "\n")
			if (c.warn == "") != (got == "") || !strings.Contains(got, c.warn) {
				t.Errorf("warnings %q, want one with %q", got, c.warn)
			}
		})
	}
}
