package nsexec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/landlock"
)

// TestMain makes this test binary an init stage when re-executed as one:
// the Go init stage needs the dispatch (the C one runs before main).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == InitArg {
		Init()
	}
	os.Exit(m.Run())
}

// TestMasksSkipVanished runs the init stage (this test binary, re-executed;
// the C one unless built with omega_goinit) with masks for paths that no
// longer exist, as when a host socket's service stops between the parent's
// plan and the mounts: the launch goes on, and what still exists is masked.
func TestMasksSkipVanished(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	secretDir, secretFile := filepath.Join(dir, "store"), filepath.Join(dir, "token")
	if err := os.Mkdir(secretDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secretDir, "key"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secretFile, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Spec{
		Path: "/bin/sh",
		Argv: []string{"sh", "-c", "cat " + secretFile + " " + secretDir + "/key; echo done"},
		Mounts: &MountPlan{
			Writable: []string{tmp}, TmpFrom: tmp, FreshRun: true,
			HideDirs:  []string{filepath.Join(dir, "gone-dir"), secretDir},
			HideFiles: []string{filepath.Join(dir, "gone.sock"), secretFile},
		},
		Landlock: landlock.Rules{ReadExec: []string{"/"}, Writable: []string{tmp}},
	}
	cmd, err := Command(t.Context(), s, Namespaces{Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(string(out), "SECRET") || !strings.Contains(string(out), "done") {
		t.Errorf("output %q: want the masks in place and the program run", out)
	}
}

func TestParentWatch(t *testing.T) {
	p := watchParent()
	if p == nil || p.ppid != os.Getppid() {
		t.Fatalf("watchParent() = %+v, want PPid %d", p, os.Getppid())
	}
	if p.gone() {
		t.Error("gone() with the parent alive")
	}
	var none *parentWatch // no /proc
	if none.gone() {
		t.Error("gone() without a watch")
	}
}
