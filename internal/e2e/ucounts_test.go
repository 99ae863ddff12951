//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestInotifyShareKept: the kernel counts inotify instances per uid
// across namespaces (fs.inotify.max_user_instances, often 128), so a
// program that takes every one it can would leave the user's editors and
// file watchers outside none. In sandbox mode it gets half the host's
// limit at most (--net none: the init stage the launcher starts itself,
// not the one its constructor started early); rwx (as nobody only: root's
// would starve the machine's services while it holds them) is the control
// that it takes them all.
func TestInotifyShareKept(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_instances")
	if err != nil {
		t.Skip(err)
	}
	host, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for _, c := range []struct {
		u    user
		mode string
		net  string
	}{{rootUser, "sandbox", "host"}, {nobody, "sandbox", "host"}, {rootUser, "sandbox", "none"}, {nobody, "sandbox", "none"}, {nobody, "rwx", "host"}} {
		t.Run(c.u.name+"/"+c.mode+"/"+c.net, func(t *testing.T) {
			w := newWorld(t, c.u)
			held, outside := holdInotify(t, w, "--mode", c.mode, "--net", c.net)
			if c.mode == "rwx" {
				if outside.code == 0 {
					t.Fatalf("control: %d instances held, and one more outside: %+v", held, outside)
				}
				return
			}
			if outside.code != 0 || held == 0 || held > host-host/2 {
				t.Fatalf("%d instances held in the sandbox (host limit %d); one outside: %+v", held, host, outside)
			}
		})
	}
}

// holdInotify runs the probe that takes every inotify instance it can
// with the flags given, and returns how many it got and what one more outside, as the
// same user, did meanwhile.
func holdInotify(t *testing.T, w *world, flags ...string) (int, result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	cmd := w.cmd(ctx, append(flags, "--allow-write", w.extra, "--", probe, "inotify-hold", w.extra)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release := filepath.Join(w.extra, "release")
	defer func() { os.WriteFile(release, nil, 0o644); cmd.Wait() }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(w.extra, "count"))
		if err == nil {
			held, _ := strconv.Atoi(string(b))
			return held, w.runProg(probe, "inotify-one")
		}
		if time.Now().After(deadline) {
			t.Fatalf("the probe wrote no count: %s", out.String())
		}
	}
}

// TestNamespaceShareKept: namespaces are counted per uid across
// namespaces too (user.max_user_namespaces, ≈ 96,000 here): a program
// holding them all would leave the user's bubblewrap, Chromium sandbox or
// podman outside none. In sandbox mode it may make 1,024 of each type;
// rwx is the control that the kernel gives more.
func TestNamespaceShareKept(t *testing.T) {
	for _, c := range []struct {
		u    user
		mode string
		want string
	}{{rootUser, "sandbox", "namespaces: 1024\n"}, {nobody, "sandbox", "namespaces: 1024\n"}, {nobody, "rwx", "namespaces: 1100\nok"}} {
		t.Run(c.u.name+"/"+c.mode, func(t *testing.T) {
			r := newWorld(t, c.u).run("--mode", c.mode, "--", probe, "userns-count", "1100")
			if !strings.HasPrefix(r.stdout, c.want) {
				t.Fatalf("%+v; want %q first", r, c.want)
			}
		})
	}
}

// readOnlyProcSys makes /proc/sys read-only, as a container's or a unit's
// ProtectKernelTunables= does (for underRootWrapper).
const readOnlyProcSys = "mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys"

// TestUserCountsWarned: where /proc/sys is read-only (a container's, a
// unit's ProtectKernelTunables=), the limits cannot be set, and the
// launch says what that leaves open, in the same words from both init
// stages (the C one's left out "open"); --fail-closed ends it first.
func TestUserCountsWarned(t *testing.T) {
	const sign = "the program may use up your user's inotify, fanotify and namespace limits, which your programs " +
		"outside share (open /proc/sys/user/max_inotify_instances: read-only file system)"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				run := func(args ...string) result { return underRootWrapperOf(w, b, readOnlyProcSys, args...) }
				if r := run("--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, sign) {
					t.Fatalf("%+v; want the program run and %q said", r, sign)
				}
				if r := run("--fail-closed", "--", "/bin/echo", "ran"); r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: "+sign) {
					t.Fatalf("--fail-closed: %+v; want 125 before the program runs", r)
				}
			})
		}
	}
}

// TestUserCountsNotOnFallback: where the sandbox's user namespace cannot
// be made and the launch falls back to running without namespaces under
// PID 1 (a state sync, here Claude Code's, or --pids), the init stage runs
// in the caller's own user namespace, whose limits are not its to set: a
// root holding CAP_SYS_RESOURCE would halve the host's inotify limits and
// set user.max_user_namespaces to 1,024 on every such launch. The caller
// here is root in a namespace of its own with the count exhausted.
func TestUserCountsNotOnFallback(t *testing.T) {
	const script = `echo 1 > /proc/sys/user/max_user_namespaces || exit 99
unshare -U sleep 20 & sleep 0.3
cat /proc/sys/user/max_user_namespaces /proc/sys/user/max_inotify_instances >&2
"$@"
cat /proc/sys/user/max_user_namespaces /proc/sys/user/max_inotify_instances >&2
kill $!`
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.runProg("unshare", "-U", "-r", "/bin/sh", "-c", script, "sh", bin, "--", scriptClaude(t, w), "echo ran")
			if !strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "user namespaces are unavailable") {
				t.Fatalf("want the fallback run: %+v", r)
			}
			if !strings.HasPrefix(r.stderr, "1\n2147483647\n") || !strings.HasSuffix(r.stderr, "\n1\n2147483647\n") {
				t.Fatalf("the caller's own limits changed: %q", r.stderr)
			}
		})
	}
}
