package cgroups

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// mangle escapes a path as the kernel does in mountinfo (seq_file's
// mangle_path with " \t\n\\").
func mangle(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if strings.IndexByte(" \t\n\\", c) >= 0 {
			fmt.Fprintf(&b, "\\%03o", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// FuzzMountinfo: a cgroup v1 mount's point and root, whatever they hold,
// come back from parseMountinfo as the kernel wrote them, and a cgroup
// path from /proc/self/cgroup never leads out of the mount point.
func FuzzMountinfo(f *testing.F) {
	f.Add("/sys/fs/cgroup/memory", "/", "/user.slice")
	f.Add("/mnt/a b\\040c", "/docker/x", "/docker/x/../../etc")
	f.Add("/m - cgroup cgroup rw,pids", "/r\nx", "../../..")
	f.Add("/0", "/\f", "")
	f.Fuzz(func(t *testing.T, point, root, cgroup string) {
		if !strings.HasPrefix(point, "/") || !strings.HasPrefix(root, "/") || strings.Contains(point+root, "\x00") {
			return // both are absolute paths, without NUL
		}
		line := "35 31 0:32 " + mangle(root) + " " + mangle(point) + " rw,relatime shared:9 - cgroup cgroup rw,memory\n"
		ms, err := parseMountinfo(strings.NewReader(line))
		if err != nil || ms["memory"] != (v1Mount{point: point, root: root}) {
			t.Fatalf("%q: parsed %+v, %v; want point %q root %q", line, ms, err, point, root)
		}
		if dir, ok := ms["memory"].dir(cgroup); ok {
			if rel, err := filepath.Rel(point, dir); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				t.Fatalf("cgroup %q under mount %+v gives %q, outside the mount", cgroup, ms["memory"], dir)
			}
		}
		parseMountinfo(strings.NewReader(point + root + cgroup)) // anything else: no panic
	})
}
