//go:build linux

package cgroups

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The cgroupfs code on plain files: what each limit writes where. The Root
// tests exercise the real files, but only those of this host's layout (a
// hybrid host has no v2 controllers); these cover both layouts anywhere.

// fakeFiles creates empty files names in dir.
func fakeFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func wantFiles(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	for name, w := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if string(got) != w {
			t.Errorf("%s = %q, want %q", name, got, w)
		}
	}
}

func TestSetV2Files(t *testing.T) {
	dir := t.TempDir()
	fakeFiles(t, dir, "memory.max", "memory.swap.max", "pids.max", "cpu.max")
	if err := setV2(dir, Limits{Memory: 64 << 20, Pids: 16, CPUs: 0.5}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, map[string]string{
		"memory.max": "67108864", "memory.swap.max": "0", "pids.max": "16", "cpu.max": "50000 100000",
	})

	// No swap accounting: memory.swap.max is absent and stays so. A
	// missing limit file is an error naming it.
	dir = t.TempDir()
	fakeFiles(t, dir, "memory.max")
	if err := setV2(dir, Limits{Memory: 8 << 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.swap.max")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("memory.swap.max created: %v", err)
	}
	err := setV2(dir, Limits{Pids: 4})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "pids.max") {
		t.Errorf("setV2 without pids.max: %v", err)
	}
}

func TestEnableControllers(t *testing.T) {
	dir := t.TempDir()
	fakeFiles(t, dir, "cgroup.subtree_control")
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("memory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := enableControllers(dir, []string{"cpu", "memory", "pids"}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, map[string]string{"cgroup.subtree_control": "+cpu +pids"})
	// Nothing missing: nothing written.
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("cpu memory pids\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := enableControllers(dir, []string{"memory"}); err != nil {
		t.Fatal(err)
	}
	if err := enableControllers(dir, nil); err != nil {
		t.Fatal(err)
	}
}

func TestSetV1Files(t *testing.T) {
	root := t.TempDir()
	g := &v1{names: []string{"cpu", "memory", "pids"}, dir: map[string]string{
		"cpu": filepath.Join(root, "cpu"), "memory": filepath.Join(root, "memory"), "pids": filepath.Join(root, "pids"),
	}}
	fakeFiles(t, g.dir["cpu"], "cpu.cfs_period_us", "cpu.cfs_quota_us")
	fakeFiles(t, g.dir["memory"], "memory.limit_in_bytes", "memory.memsw.limit_in_bytes")
	fakeFiles(t, g.dir["pids"], "pids.max")
	if err := g.set(Limits{Memory: 64 << 20, Pids: 16, CPUs: 1.5}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, g.dir["cpu"], map[string]string{"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "150000"})
	wantFiles(t, g.dir["memory"], map[string]string{"memory.limit_in_bytes": "67108864", "memory.memsw.limit_in_bytes": "67108864"})
	wantFiles(t, g.dir["pids"], map[string]string{"pids.max": "16"})
	if d := g.dirs(); !slices.Equal(d, []string{g.dir["cpu"], g.dir["memory"], g.dir["pids"]}) {
		t.Errorf("dirs() = %v", d)
	}
}

func TestReadCounter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "memory.events")
	if err := os.WriteFile(p, []byte("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]uint64{"oom_kill": 1, "oom": 2, "max": 12, "oom_group_kill": 0} {
		if n, ok, err := readCounter(p, key); err != nil || !ok || n != want {
			t.Errorf("%s = %d, %v, %v; want %d", key, n, ok, err, want)
		}
	}
	if _, ok, err := readCounter(p, "nope"); ok || err != nil {
		t.Errorf("missing key: ok=%v err=%v", ok, err)
	}
	g := &v2{dir: filepath.Dir(p), memory: true}
	if n, ok, err := g.oomKills(); n != 1 || !ok || err != nil {
		t.Errorf("v2 oomKills = %d, %v, %v", n, ok, err)
	}
}

func TestTreeProcs(t *testing.T) {
	root := t.TempDir()
	write := func(rel, procs string) {
		fakeFiles(t, filepath.Join(root, rel))
		if err := os.WriteFile(filepath.Join(root, rel, "cgroup.procs"), []byte(procs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".", "10\n11\n")
	write("a", "")
	write("a/b", "12\n10\n")
	write("c", "13\n")
	got, err := treeProcs(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, []int{10, 11, 12, 13}) {
		t.Errorf("treeProcs = %v", got)
	}
	if _, err := treeProcs(filepath.Join(root, "gone"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing group: %v, want ErrNotExist", err)
	}
}

// TestKillFallback: without cgroup.kill (before Linux 5.14) the v2 group
// is frozen, its processes are killed through pidfds, and it is thawed.
func TestKillFallback(t *testing.T) {
	dir := t.TempDir()
	fakeFiles(t, dir, "cgroup.freeze")
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleep.Process.Kill(); _ = sleep.Wait() })
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(sleep.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &v2{dir: dir, cgfd: -1}
	if err := g.kill([]int{sleep.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	err := sleep.Wait()
	if ws, ok := sleep.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("sleep: %v, want SIGKILL", err)
	}
	wantFiles(t, dir, map[string]string{"cgroup.freeze": "0"})
}

func TestParseProcCgroup(t *testing.T) {
	v1, v2, ok, err := parseProcCgroup(strings.NewReader(
		"12:pids:/user.slice/user-0.slice\n4:cpu,cpuacct:/a\n1:name=systemd:/init.scope\n0::/user.slice/x.scope\n"))
	if err != nil || !ok || v2 != "/user.slice/x.scope" {
		t.Fatalf("v2 = %q, %v, %v", v2, ok, err)
	}
	for c, want := range map[string]string{"pids": "/user.slice/user-0.slice", "cpu": "/a", "cpuacct": "/a", "name=systemd": "/init.scope"} {
		if v1[c] != want {
			t.Errorf("v1[%s] = %q, want %q", c, v1[c], want)
		}
	}
	if _, _, ok, _ := parseProcCgroup(strings.NewReader("3:memory:/\n")); ok {
		t.Error("v2 entry found in a v1-only file")
	}
}

func TestParseMountinfo(t *testing.T) {
	ms, err := parseMountinfo(strings.NewReader(`31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:32 / /mnt/memory\040again rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ms["rw"]; !ok || len(ms) != 4 { // rw, cpu, cpuacct, memory
		t.Errorf("mounts %v", ms)
	}
	if m := ms["cpu"]; m != (v1Mount{point: "/sys/fs/cgroup/cpu,cpuacct", root: "/"}) || ms["cpuacct"] != m {
		t.Errorf("cpu: %+v", m)
	}
	if m := ms["memory"]; m != (v1Mount{point: "/sys/fs/cgroup/memory", root: "/docker/abc"}) {
		t.Errorf("memory (first mount wins): %+v", m)
	}
	// The kernel leaves a form feed as it is (found by FuzzMountinfo): it
	// used to split the line, making "rw,relatime" the mount point.
	ms, err = parseMountinfo(strings.NewReader("35 31 0:32 /a\fb /mnt/p\fq rw,relatime - cgroup cgroup rw,pids\n"))
	if m := ms["pids"]; err != nil || m != (v1Mount{point: "/mnt/p\fq", root: "/a\fb"}) {
		t.Errorf("pids: %+v, %v", m, err)
	}
}

func TestV1MountDir(t *testing.T) {
	for _, tt := range []struct {
		m    v1Mount
		p    string
		want string
	}{
		{v1Mount{"/sys/fs/cgroup/pids", "/"}, "/", "/sys/fs/cgroup/pids"},
		{v1Mount{"/sys/fs/cgroup/pids", "/"}, "/user.slice", "/sys/fs/cgroup/pids/user.slice"},
		{v1Mount{"/sys/fs/cgroup/pids", "/docker/abc"}, "/docker/abc", "/sys/fs/cgroup/pids"},
		{v1Mount{"/sys/fs/cgroup/pids", "/docker/abc"}, "/docker/abc/x", "/sys/fs/cgroup/pids/x"},
		{v1Mount{"/sys/fs/cgroup/pids", "/docker/abc"}, "/docker/abcd", ""},
		{v1Mount{"/sys/fs/cgroup/pids", "/docker/abc"}, "/", ""},
	} {
		got, ok := tt.m.dir(tt.p)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%+v.dir(%q) = %q, %v; want %q", tt.m, tt.p, got, ok, tt.want)
		}
	}
}
