//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// claudeSavesPid is a fake claude that leaves state of its own.
const claudeSavesPid = `echo "{\"userID\": \"u\", \"run\": $$}" > "$HOME/.claude/.claude.json"`

// TestStateCopyBackSynced: the copy back of ~/.claude.json writes its
// temporary file to disk (fsync) before renaming it over the user's file:
// without, a crash or power loss soon after the launch could leave
// ~/.claude.json empty where the file system commits the rename first
// (XFS, ext4 with noauto_da_alloc).
func TestStateCopyBackSynced(t *testing.T) {
	strace := needStrace(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				claude, state := fakeClaude(t, w, claudeSavesPid)
				chownTree(t, w.home, u)
				trace := filepath.Join(w.outside, "trace")
				r := w.under([]string{strace, "-f", "-qq", "-e", "trace=openat,fsync,fdatasync,renameat,renameat2", "-o", trace}, "--mode", mode, "--", claude)
				if b, _ := os.ReadFile(state); r.code != 0 || !strings.Contains(string(b), `"run"`) {
					t.Fatalf("exit %d, stderr %q, ~/.claude.json %q; want the program's state home", r.code, r.stderr, b)
				}
				data, err := os.ReadFile(trace)
				if err != nil {
					t.Fatal(err)
				}
				if why := syncedBeforeRename(string(data)); why != "" {
					t.Error(why)
				}
			})
		}
	}
}

// homeTempOpen is the copy back's create of its temporary file beside
// ~/.claude.json (relative to the directory it holds open).
var homeTempOpen = regexp.MustCompile(`openat\(\d+, "(\.\.claude\.json\.omega-[0-9a-z]+)", O_WRONLY\|O_CREAT.* = (\d+)`)

// syncedBeforeRename reads an strace -f log of a launch: the temporary
// file made for ~/.claude.json is synced (fsync or fdatasync on its fd)
// before it is renamed; "" when so, else what is missing.
func syncedBeforeRename(log string) string {
	lines := strings.Split(log, "\n")
	for i, l := range lines {
		m := homeTempOpen.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		tmp, fd := m[1], m[2]
		synced := false
		for _, l := range lines[i+1:] {
			if strings.Contains(l, "fsync("+fd+")") || strings.Contains(l, "fdatasync("+fd+")") {
				synced = true
			}
			if strings.Contains(l, "rename") && strings.Contains(l, `"`+tmp+`"`) {
				if !synced {
					return tmp + " renamed over ~/.claude.json without a sync"
				}
				return ""
			}
		}
		return tmp + " never renamed"
	}
	return "no temporary file for ~/.claude.json in the trace"
}
