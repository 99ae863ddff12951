//go:build linux

package cgroups

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLimitReachedFiles: what MemoryLimitReached reads from the kernel's
// files on each version, written here as a kernel writes them (v2's real
// limits need a unified host; this one is v1). An oom_kill alone, the
// machine's or a parent's, is not the group's limit; v1 memory.failcnt
// stays 0 at the limit where memsw's charge failed first (Linux 6.16+),
// where the peak tells.
func TestLimitReachedFiles(t *testing.T) {
	const limit = "67108864\n"
	for _, tt := range []struct {
		name  string
		v2    bool
		files map[string]string
		want  bool
	}{
		{"v2 oom", true, map[string]string{"memory.events": "low 0\nhigh 0\nmax 40\noom 1\noom_kill 1\noom_group_kill 0\n"}, true},
		{"v2 oom_kill alone", true, map[string]string{"memory.events": "low 0\nhigh 0\nmax 0\noom 0\noom_kill 1\noom_group_kill 0\n"}, false},
		{"v1 failcnt", false, map[string]string{"memory.failcnt": "83\n", "memory.limit_in_bytes": limit, "memory.max_usage_in_bytes": "12288\n"}, true},
		{"v1 memsw peak", false, map[string]string{"memory.failcnt": "0\n", "memory.limit_in_bytes": limit, "memory.max_usage_in_bytes": limit,
			"memory.memsw.limit_in_bytes": limit, "memory.memsw.max_usage_in_bytes": limit}, true},
		{"v1 below", false, map[string]string{"memory.failcnt": "0\n", "memory.limit_in_bytes": "536870912\n", "memory.max_usage_in_bytes": "190000000\n",
			"memory.memsw.limit_in_bytes": "536870912\n", "memory.memsw.max_usage_in_bytes": "190000000\n"}, false},
		{"v1 below, no swap accounting", false, map[string]string{"memory.failcnt": "0\n", "memory.limit_in_bytes": "536870912\n", "memory.max_usage_in_bytes": "190000000\n"}, false},
	} {
		dir := t.TempDir()
		for f, data := range tt.files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var b backend = &v1{names: []string{"memory"}, dir: map[string]string{"memory": dir}}
		if tt.v2 {
			b = &v2{dir: dir, memory: true, cgfd: -1}
		}
		if got, err := b.limitReached(); err != nil || got != tt.want {
			t.Errorf("%s: limitReached() = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}
