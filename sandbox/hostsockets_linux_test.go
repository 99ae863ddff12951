package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// bindUnix binds a listening unix socket at path for the test's length.
func bindUnix(t testing.TB, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
}

func TestSocketDirs(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "via")); err != nil {
		t.Fatal(err)
	}
	bindUnix(t, filepath.Join(real, "a.sock"))
	bindUnix(t, filepath.Join(real, "gone.sock"))
	os.Remove(filepath.Join(real, "gone.sock")) // listed while open
	bindUnix(t, filepath.Join(real, "b.sock"))
	os.Rename(filepath.Join(real, "b.sock"), filepath.Join(real, "b2.sock"))
	os.Symlink("b2.sock", filepath.Join(real, "b.sock")) // a link where it was bound
	os.WriteFile(filepath.Join(real, "file"), nil, 0o644)
	d := socketDirs{}
	for _, c := range []struct {
		bound, want string
	}{
		{filepath.Join(real, "a.sock"), filepath.Join(real, "a.sock")},
		{filepath.Join(dir, "via", "a.sock"), filepath.Join(real, "a.sock")},
		{filepath.Join(real, "b.sock"), filepath.Join(real, "b2.sock")},
		{filepath.Join(real, "gone.sock"), ""},
		{filepath.Join(real, "file"), ""},
		{filepath.Join(dir, "missing", "x.sock"), ""},
	} {
		got, _, ok := d.socket(c.bound)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("socket(%s) = %q, %v; want %q", c.bound, got, ok, c.want)
		}
	}
}

func TestHostSocketsMasked(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	own := filepath.Join(dir, "own")
	os.Mkdir(own, 0o755)
	os.Symlink(dir, filepath.Join(dir, "link"))
	bindUnix(t, filepath.Join(dir, "host.sock"))
	bindUnix(t, filepath.Join(dir, "link", "twice.sock")) // listed by the linked name
	bindUnix(t, filepath.Join(own, "mine.sock"))
	bindUnix(t, filepath.Join(dir, "allowed.sock"))
	pol := profiles.Policy{Writable: []string{own}, AllowSocket: []string{filepath.Join(dir, "allowed.sock")}}
	got, _, err := hostSockets(pol, &nsexec.MountPlan{}, os.Geteuid(), readAliases(t))
	if err != nil {
		t.Fatal(err)
	}
	mine := slices.DeleteFunc(got, func(p string) bool { return !profiles.Within(p, dir) })
	want := []string{filepath.Join(dir, "host.sock"), filepath.Join(dir, "twice.sock")}
	slices.Sort(mine)
	if !slices.Equal(mine, want) {
		t.Errorf("masked %q, want %q", mine, want)
	}
}

// TestHostSocketsOthersBounded: another user's world-writable sockets by
// the thousand get maxOtherSockets masks, after those only a group
// reaches (which the flood cannot push out); root's all; sockets only
// their owner may connect to need none. With --net none every one that
// may be reached is masked.
func TestHostSocketsOthersBounded(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give sockets to another user")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	give := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		bindUnix(t, p)
		if err := os.Lchown(p, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		return p
	}
	const others = maxOtherSockets + 100
	for i := range others {
		give(fmt.Sprintf("o%d", i), 0o777)
	}
	// Listed after the flood, each ranked before it or left out.
	group := give("group.sock", 0o770)
	private := give("private.sock", 0o700)
	mine := filepath.Join(dir, "root.sock")
	bindUnix(t, mine)
	for _, net := range []profiles.Network{profiles.NetHost, profiles.NetNone} {
		got, dropped, err := hostSockets(profiles.Policy{Net: net}, &nsexec.MountPlan{}, os.Geteuid(), readAliases(t))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got, mine) || !slices.Contains(got, group) || slices.Contains(got, private) {
			t.Errorf("net %s: root's masked %v, group-only %v, owner-only %v; want true, true, false", net,
				slices.Contains(got, mine), slices.Contains(got, group), slices.Contains(got, private))
		}
		in := len(slices.DeleteFunc(got, func(p string) bool { return !profiles.Within(p, dir) }))
		switch {
		case net == profiles.NetNone && (in != others+2 || dropped != 0):
			t.Errorf("net none: %d of %d masked, %d dropped; want all", in, others+2, dropped)
		case net == profiles.NetHost && (in > maxOtherSockets+1 || dropped < 101):
			t.Errorf("net host: %d masked here, %d dropped; want at most %d, at least 101 dropped", in, dropped, maxOtherSockets+1)
		}
	}
}

// BenchmarkHostSockets: a local user can bind tens of thousands of
// sockets where every launch sees them; each costs the launch a look.
func BenchmarkHostSockets(b *testing.B) {
	dir := b.TempDir()
	for i := range 2000 {
		bindUnix(b, filepath.Join(dir, fmt.Sprintf("s%d", i)))
	}
	pol := profiles.Policy{Home: dir, Writable: []string{filepath.Join(dir, "w")}}
	plan := &nsexec.MountPlan{HideDirs: homeStores(dir)}
	for b.Loop() {
		if _, _, err := hostSockets(pol, plan, os.Geteuid(), readAliases(b)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestWithinMountMax(t *testing.T) {
	dir := t.TempDir()
	plan := &nsexec.MountPlan{HideFiles: []string{dir + "/a", dir + "/b", "/elsewhere/c"}}
	for i := range 1024 {
		plan.HideDirs = append(plan.HideDirs, fmt.Sprintf("/h/%d", i))
	}
	limit := filepath.Join(t.TempDir(), "mount-max")
	defer func(old string) { mountMaxFile = old }(mountMaxFile)
	mountMaxFile = limit
	for _, c := range []struct {
		max  string
		fail bool
	}{
		{"100000", false},
		{"10", true},   // below the host's own mounts
		{"bad", false}, // unreadable: the kernel says it, if ever
	} {
		os.WriteFile(limit, []byte(c.max+"\n"), 0o644)
		err := withinMountMax(plan)
		if (err != nil) != c.fail {
			t.Errorf("mount-max %s: %v", c.max, err)
		}
		if err != nil && !strings.Contains(err.Error(), "2 of the 1027 paths to mask are in "+dir) {
			t.Errorf("mount-max %s: %v does not name %s", c.max, err, dir)
		}
	}
}

// BenchmarkOtherUnixTables is what reading every other network
// namespace's socket table adds to a launch: a stat per process.
func BenchmarkOtherUnixTables(b *testing.B) {
	for b.Loop() {
		otherUnixTables()
	}
}

func TestUnixTableLines(t *testing.T) {
	const head = "Num       RefCount Protocol Flags    Type St Inode Path\n"
	for _, c := range []struct {
		name   string
		own    string
		others []string
		want   int
	}{
		{"own only", head + "a\nb", nil, 2},
		{"headers of others dropped", head + "a", []string{head + "b\nc", head}, 4}, // a, b, c and the empty line after the last header
		{"empty table", "", []string{head + "x"}, 1},
	} {
		var others [][]byte
		for _, o := range c.others {
			others = append(others, []byte(o))
		}
		got := unixTableLines([]byte(c.own), others)
		for _, l := range got {
			if strings.HasPrefix(l, "Num") {
				t.Errorf("%s: header kept: %q", c.name, got)
			}
		}
		if len(got) != c.want {
			t.Errorf("%s: %d lines %q, want %d", c.name, len(got), got, c.want)
		}
	}
}

// TestMovedSocketsOwnDirOnly: the directory of a moved socket is read
// only where no other user can add names to it; a world-writable one
// (/var/tmp) or one another group may write, which others could fill
// with stale socket files for every launch to read, is not.
func TestMovedSocketsOwnDirOnly(t *testing.T) {
	for _, c := range []struct {
		mode     os.FileMode
		otherGID bool
		want     int
	}{{0o755, false, 1}, {0o700, false, 1}, {0o775, false, 1}, {0o775, true, 0}, {0o757, false, 0}, {0o777, false, 0}} {
		d := t.TempDir()
		bindUnix(t, filepath.Join(d, "s"))
		if err := os.Chmod(d, c.mode); err != nil {
			t.Fatal(err)
		}
		if c.otherGID {
			if err := os.Chown(d, -1, os.Getgid()+4242); err != nil {
				t.Logf("another group: %v", err)
				continue
			}
		}
		if got := movedSockets(map[string]bool{d: true}, os.Getuid()); len(got) != c.want {
			t.Errorf("mode %v: %q, want %d", c.mode, got, c.want)
		}
	}
}

func TestUnixPath(t *testing.T) {
	const cols = "0000000000000000: 00000002 00000000 00010000 0001 01 "
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{cols + "24009618 /run/a.sock", "/run/a.sock", true},
		{cols + "   12 /srv/a  b.sock", "/srv/a  b.sock", true},
		{cols + "12 /srv/c.sock ", "/srv/c.sock ", true},
		{cols + "12 / x", "/ x", true},
		{cols + "12 @abstract", "", false},
		{cols + "12", "", false},
		{cols + "12 ", "", false},
		{"", "", false},
	} {
		if got, ok := unixPath(c.line); (ok && got != c.want) || ok != c.ok {
			t.Errorf("%q: %q %v, want %q %v", c.line, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{cols + "12 app.sock", "app.sock", true},
		{cols + "12 sub/a b.sock", "sub/a b.sock", true},
		{cols + "12 /run/a.sock", "", false},
		{cols + "12 @abstract", "", false},
		{cols + "12 ", "", false},
		{cols + "12", "", false},
	} {
		if got, ok := unixRelPath(c.line); (ok && got != c.want) || ok != c.ok {
			t.Errorf("unixRelPath(%q): %q %v, want %q %v", c.line, got, ok, c.want, c.ok)
		}
	}
}
