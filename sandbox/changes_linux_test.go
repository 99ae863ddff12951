package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omega-run/omega-run/profiles"
)

// TestMadeLater: after the run, the RunsLater files absent at the scan
// that exist now are reported, ten at most and a count of the rest, with
// --writable-git-config too; one there at the start is not, nor a link
// that was dangling then and still is.
func TestMadeLater(t *testing.T) {
	if len(profiles.RunsLater) > 64 {
		t.Fatal("laterDir.absent holds 64 RunsLater names at most")
	}
	for _, wgc := range []bool{false, true} {
		t.Run(fmt.Sprint("writable-git-config=", wgc), func(t *testing.T) {
			root := t.TempDir()
			for i := range 12 {
				if err := os.Mkdir(filepath.Join(root, fmt.Sprint("d", i)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(root, ".envrc"), nil, 0o644)
			os.Symlink("nowhere", filepath.Join(root, ".mcp.json"))
			_, g := runsLater(profiles.Policy{Writable: []string{root}, WritableGitConfig: wgc}, nil, []string{root}, false)
			if got := g.changes(); len(got) != 0 {
				t.Fatalf("before the run: %q", got)
			}
			os.WriteFile(filepath.Join(root, ".envrc"), []byte("changed"), 0o644) // held by a bind in a launch
			for i := range 12 {
				os.WriteFile(filepath.Join(root, fmt.Sprint("d", i), ".envrc"), nil, 0o644)
			}
			got := g.changes()
			if len(got) != 11 || !strings.HasPrefix(got[10], "and 2 more files the program made") {
				t.Fatalf("changes() = %q; want 10 lines and one for the 2 more", got)
			}
			if want := "the program made " + filepath.Join(root, "d0", ".envrc") + ": direnv runs"; !strings.HasPrefix(got[0], want) {
				t.Errorf("first line %q, want it to start %q", got[0], want)
			}
		})
	}
}

// TestMadeLaterNewDir: a RunsLater file the program makes in a directory
// it made too, directly in a project top (a writable root, a new project
// in the workspace, a directory in that), is reported like one in a
// directory that was there; one deeper is not looked for.
func TestMadeLaterNewDir(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	ws := filepath.Join(data, "workspace")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	pol := profiles.Policy{DataDir: data, Writable: []string{data, root}}
	_, g := runsLater(pol, nil, []string{data, root}, false)
	made := []string{
		filepath.Join(root, "new", ".envrc"),
		filepath.Join(ws, "proj", ".mcp.json"),
		filepath.Join(ws, "proj", "sub", ".vscode", "tasks.json"),
	}
	deep := filepath.Join(root, "a", "b", ".envrc")
	for _, p := range append(made, deep) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, nil, 0o644)
	}
	got := strings.Join(g.changes(), "\n")
	for _, p := range made {
		if !strings.Contains(got, "the program made "+p+":") {
			t.Errorf("%s not reported; changes %q", p, got)
		}
	}
	if strings.Contains(got, deep) {
		t.Errorf("%s reported; changes %q", deep, got)
	}
}

// TestMadeLaterTopSwapped: a project top the program replaced after the
// scan with a FIFO, or a link to a directory elsewhere, is not opened to
// look for new directories: no wait for a writer, and nothing reported
// of a tree outside the writable set — only the link itself, which would
// give that tree to a later launch named through it (linksOut).
func TestMadeLaterTopSwapped(t *testing.T) {
	for _, swap := range []string{"fifo", "link"} {
		t.Run(swap, func(t *testing.T) {
			root, elsewhere := t.TempDir(), t.TempDir()
			proj := filepath.Join(root, "proj")
			os.MkdirAll(filepath.Join(proj, ".git"), 0o755) // a repository's top
			_, g := runsLater(profiles.Policy{Writable: []string{root}, WritableGitConfig: true}, nil, []string{root}, false)
			if err := os.RemoveAll(proj); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(elsewhere, "sub"), 0o755)
			os.WriteFile(filepath.Join(elsewhere, "sub", ".envrc"), nil, 0o644)
			if swap == "fifo" {
				syscall.Mkfifo(proj, 0o600)
			} else {
				os.Symlink(elsewhere, proj)
			}
			done := make(chan []string, 1)
			go func() { done <- g.changes() }()
			select {
			case got := <-done:
				want := 0
				if swap == "link" {
					want = 1
				}
				if len(got) != want || strings.Contains(strings.Join(got, "\n"), ".envrc") ||
					(want == 1 && !strings.Contains(got[0], "the program made "+proj+" a symlink to "+elsewhere)) {
					t.Errorf("changes() = %q, want %d line(s), none of the tree elsewhere", got, want)
				}
			case <-time.After(5 * time.Second):
				f, _ := os.OpenFile(proj, os.O_WRONLY, 0) // let the reader go
				f.Close()
				t.Fatal("changes() waits on the FIFO")
			}
		})
	}
}
