package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

func TestKeepWorkdir(t *testing.T) {
	dir, err := os.MkdirTemp("/tmp", "omega-keepwd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	mounted := &mountAliases{byPoint: map[string]mountEntry{sub: {}}}
	none := &mountAliases{byPoint: map[string]mountEntry{"/": {}, "/tmp": {}, dir: {}}}
	for _, c := range []struct {
		name     string
		plan     nsexec.MountPlan
		wd       string
		aliases  *mountAliases
		wantKept bool
	}{
		{"below the private /tmp", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}}, dir, none, true},
		{"the host's /tmp itself", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}}, "/tmp", none, false},
		{"shared /tmp", nsexec.MountPlan{Writable: []string{"/tmp"}}, dir, none, false},
		{"in a writable root", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp", dir}}, sub, none, false},
		{"a mount below", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}}, dir, mounted, false},
		{"gone", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}}, filepath.Join(dir, "gone"), none, false},
		{"elsewhere", nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}}, "/", none, false},
	} {
		plan := c.plan
		warnings := keepWorkdir(&plan, c.wd, c.aliases)
		if kept := slices.Contains(plan.Keep, c.wd); kept != c.wantKept || (len(warnings) > 0) != c.wantKept {
			t.Errorf("%s: kept %v (Keep %q, warnings %q), want %v", c.name, kept, plan.Keep, warnings, c.wantKept)
		}
	}
}

func TestSocketSkipperKeptWorkdir(t *testing.T) {
	dir, err := os.MkdirTemp("/tmp", "omega-keepwd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	plan := &nsexec.MountPlan{TmpFrom: "/d/tmp", Writable: []string{"/tmp"}, Keep: []string{dir}}
	skipped := socketSkipper(profiles.Policy{Writable: []string{"/tmp"}}, plan)
	if skipped(filepath.Join(dir, "s.sock")) {
		t.Errorf("a socket in the kept working directory %s is skipped: it stays unmasked", dir)
	}
	if !skipped("/tmp/other/s.sock") {
		t.Error("a socket elsewhere in the host's /tmp is masked: the private /tmp covers it")
	}
}
