//go:build linux

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// attack is one way of changing something outside the writable set.
type attack struct {
	name   string
	script string // $S is the sentinel, $O its dir, $W a writable dir
	// changed reports, from outside, whether the attack got through.
	changed func(w *world) bool
	// metadata attacks are stopped by sandbox mode's read-only mounts;
	// Landlock has no rights for them, so rx cannot stop them.
	metadata bool
}

func sentinelChanged(w *world) bool { return w.sentinel() != "original" }

func created(name string) func(w *world) bool {
	return func(w *world) bool { return w.exists(filepath.Join(w.outside, name)) }
}

// $P is the probe (probe/main.go).
var attacks = []attack{
	{name: "overwrite", script: `echo pwned > "$S"`, changed: sentinelChanged},
	{name: "append", script: `echo pwned >> "$S"`, changed: sentinelChanged},
	{name: "truncate", script: `truncate -s 0 "$S"`, changed: sentinelChanged},
	// truncate(2) by path: no open for writing that Landlock's write right
	// would stop first (sandbox mode relies on the read-only root here).
	{name: "truncate-syscall", script: `"$P" truncate "$S"`, changed: sentinelChanged},
	{name: "create", script: `echo x > "$O/new"`, changed: created("new")},
	{name: "mkdir", script: `mkdir "$O/newdir"`, changed: created("newdir")},
	{name: "mkfifo", script: `mkfifo "$O/fifo"`, changed: created("fifo")},
	{name: "symlink-create", script: `ln -s /etc/passwd "$O/sym"`, changed: created("sym")},
	{name: "delete", script: `rm -f "$S"`, changed: sentinelChanged},
	{name: "rename-out", script: `mv "$S" "$W/stolen"`, changed: sentinelChanged},
	{name: "rename-in", script: `echo pwned > "$W/f" && mv "$W/f" "$O/moved"`, changed: created("moved")},
	{name: "hardlink-then-write", script: `ln "$S" "$W/hl"; echo pwned > "$W/hl"`, changed: sentinelChanged},
	{name: "symlink-then-write", script: `ln -s "$S" "$W/sl"; echo pwned > "$W/sl"`, changed: sentinelChanged},
	{name: "proc-self-root", script: `echo pwned > "/proc/self/root$S"`, changed: sentinelChanged},
	{name: "proc-self-cwd", script: `cd "$O" && echo pwned > /proc/self/cwd/sentinel`, changed: sentinelChanged},
	{name: "proc-pid-fd-reopen", script: `exec 3<"$S"; echo pwned > /proc/$$/fd/3`, changed: sentinelChanged},
	{name: "chmod", script: `chmod 600 "$S"`, changed: modeChanged, metadata: true},
	{name: "touch-mtime", script: `touch -d 2001-01-01 "$S"`, changed: mtimeChanged, metadata: true},
	{name: "setxattr", script: `"$P" setxattr "$S"`, changed: xattrSet, metadata: true},
	{name: "chattr-nodump", script: `"$P" chattr-nodump "$S"`, changed: nodumpSet, metadata: true},
}

func modeChanged(w *world) bool { return statOf(w).mode != 0o644 }

func mtimeChanged(w *world) bool { return statOf(w).year == 2001 }

func xattrSet(w *world) bool {
	n, _ := unix.Getxattr(filepath.Join(w.outside, "sentinel"), "user.omega", make([]byte, 8))
	return n > 0
}

// fsNodumpFL is FS_NODUMP_FL from linux/fs.h (x/sys/unix lacks it).
const fsNodumpFL = 0x40

func nodumpSet(w *world) bool {
	fd, err := unix.Open(filepath.Join(w.outside, "sentinel"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	return err == nil && flags&fsNodumpFL != 0
}

// TestWriteConfinement runs every attack as root and as nobody, in each
// confined mode, and in rwx as the control that proves the attack works.
func TestWriteConfinement(t *testing.T) {
	for _, u := range users {
		for _, mode := range append([]string{"rwx"}, confinedModes...) {
			for _, a := range attacks {
				t.Run(fmt.Sprintf("%s/%s/%s", u.name, mode, a.name), func(t *testing.T) {
					w := newWorld(t, u)
					r := w.sh(mode, a.script, "--allow-write", w.extra)
					_ = r
					got := a.changed(w)
					want := mode == "rwx" || (mode == "rx" && a.metadata)
					if got != want {
						t.Errorf("attack changed the outside: %v, want %v\nstdout: %s\nstderr: %s", got, want, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}

// TestWritableSet checks the other side: every writable root takes
// writes, renames and links.
func TestWritableSet(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				tmp := "/tmp/omega-e2e-" + strings.ReplaceAll(t.Name(), "/", "-")
				script := `set -e
for d in "$DATA/workspace" "$TMPD" "$HOME/.claude" "$X"; do
  mkdir -p "$d/sub"; echo hi > "$d/sub/f"; mv "$d/sub/f" "$d/g"; ln "$d/g" "$d/h"; ln -s g "$d/s"
  truncate -s 1 "$d/g"; rm "$d/h" "$d/s"; rm -r "$d/sub"
done
echo ok > /dev/null; head -c1 /dev/zero >/dev/null; echo done`
				env := fmt.Sprintf(`DATA=%q TMPD=%q X=%q; `, w.dataDir, tmp, w.extra)
				r := w.sh(mode, env+script, "--allow-write", w.extra)
				if r.code != 0 || !strings.Contains(r.stdout, "done") {
					t.Fatalf("writes in the writable set failed: code %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
