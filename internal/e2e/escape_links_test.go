//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// A hard link already in the writable set is the file itself: Landlock
// and the mounts judge the path, so the program writes a file outside
// through it in every mode (README, threat model). The program cannot
// make such a link itself (writes_test.go).
func init() {
	escapes = append(escapes,
		escape{"hard-link-already-in-writable-set", 3, func(t *testing.T, w *world, mode string) bool {
			target := filepath.Join(w.outside, "linked")
			writeFile(t, target, "HOST")
			os.Chown(target, w.u.uid, w.u.gid)
			link := filepath.Join(w.dataDir, "workspace", "linked")
			if err := os.Link(target, link); err != nil {
				t.Fatal(err)
			}
			w.run("--mode", mode, "--", "/bin/sh", "-c", "echo pwned > "+link)
			b, _ := os.ReadFile(target)
			return string(b) != "HOST"
		}, allModes},
	)
}
