package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// benchTree makes a project tree of about 330 directories, three levels
// deep, with a repository at its top and a few files in each directory:
// the size of a middling --allow-write project.
func benchTree(b *testing.B) string {
	root := b.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("f%d.go", i)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	mk(filepath.Join(root, ".git", "hooks"))
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for k := 0; k < 8; k++ {
				mk(filepath.Join(root, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", j), fmt.Sprintf("c%d", k)))
			}
		}
	}
	return root
}

func BenchmarkWalkDirs(b *testing.B) {
	root := benchTree(b)
	b.ResetTimer()
	for b.Loop() {
		n := 0
		walkDirs(root, profiles.ScanDepth, nil, func(string) {}, func(string, map[string]bool) { n++ })
		if n < 300 {
			b.Fatalf("visited %d directories", n)
		}
	}
}

func BenchmarkRunsLater(b *testing.B) {
	root := benchTree(b)
	pol := profiles.Policy{Home: b.TempDir(), Writable: []string{root}}
	b.ResetTimer()
	for b.Loop() {
		runsLater(pol, nil, []string{root}, true)
	}
}
