package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// syncWith is syncIn for a policy with writable roots.
func syncWith(t *testing.T, home string, writable []string) []*stateSync {
	t.Helper()
	syncs, err := syncIn(home, writable, profiles.ProgramFor("claude"))
	if err != nil {
		t.Fatalf("syncIn: %v", err)
	}
	return syncs
}

// linkHome is a home with ~/.claude and a hidden key in ~/.ssh, reached
// through a symlink too (the returned via).
func linkHome(t *testing.T) (home, via string) {
	base := t.TempDir()
	home, via = filepath.Join(base, "home"), filepath.Join(base, "via")
	for _, d := range []string{".claude", ".ssh", "dotfiles", "proj"} {
		os.MkdirAll(filepath.Join(home, d), 0o700)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "key"), []byte("KEY"), 0o600)
	os.Symlink(home, via)
	return home, via
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestStateSyncLinkRefused: a home state file that the program could
// re-point — a symlink on its way in a writable root, or a link to a
// file in one — is not synced: syncIn would copy what the program chose
// (a hidden credential store) into the working copy, and syncOut write
// the program's state where it chose.
func TestStateSyncLinkRefused(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, home string) (writable []string)
		via   bool // home named through a symlink to it
	}{
		{"link into ~/.claude", func(t *testing.T, home string) []string {
			os.WriteFile(filepath.Join(home, ".claude", "real.json"), []byte(`{"s":"v0"}`), 0o600)
			mustLink(t, ".claude/real.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false},
		{"re-pointed at a credential store", func(t *testing.T, home string) []string {
			mustLink(t, filepath.Join(home, ".ssh", "key"), filepath.Join(home, ".claude", "real.json"))
			mustLink(t, ".claude/real.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false},
		{"a link in ~/.claude on the way", func(t *testing.T, home string) []string {
			os.WriteFile(filepath.Join(home, "dotfiles", "c.json"), []byte(`{"s":"v0"}`), 0o600)
			mustLink(t, "../dotfiles", filepath.Join(home, ".claude", "l"))
			mustLink(t, ".claude/l/c.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false},
		{"into an --allow-write root", func(t *testing.T, home string) []string {
			os.WriteFile(filepath.Join(home, "proj", "c.json"), []byte(`{"s":"v0"}`), 0o600)
			mustLink(t, "proj/c.json", filepath.Join(home, ".claude.json"))
			return []string{filepath.Join(home, "proj")}
		}, false},
		{"home named through a link", func(t *testing.T, home string) []string {
			os.WriteFile(filepath.Join(home, ".claude", "real.json"), []byte(`{"s":"v0"}`), 0o600)
			mustLink(t, ".claude/real.json", filepath.Join(home, ".claude.json"))
			return nil
		}, true},
		{"/proc/self/cwd in ~/.claude", func(t *testing.T, home string) []string {
			os.WriteFile(filepath.Join(home, ".claude", "real.json"), []byte(`{"s":"v0"}`), 0o600)
			mustLink(t, "/proc/self/cwd/real.json", filepath.Join(home, ".claude.json"))
			t.Chdir(filepath.Join(home, ".claude"))
			return nil
		}, false},
		{"writable home, the file a link", func(t *testing.T, home string) []string {
			mustLink(t, filepath.Join(home, ".ssh", "key"), filepath.Join(home, ".claude.json"))
			return []string{home}
		}, false},
		// An earlier launch with --allow-write ~/dotfiles2 re-pointed
		// the link there; this one has no such grant.
		{"chain re-pointed at a credential store", func(t *testing.T, home string) []string {
			earlierLink(t, home, filepath.Join(home, ".ssh", "key"))
			return nil
		}, false},
		{"chain at a JSON object named claude in a credential store", func(t *testing.T, home string) []string {
			writeState(t, filepath.Join(home, ".ssh", "claude.json"), "{}")
			earlierLink(t, home, filepath.Join(home, ".ssh", "claude.json"))
			return nil
		}, false},
		{"chain at a shell file named claude", func(t *testing.T, home string) []string {
			writeState(t, filepath.Join(home, ".bashrc.d", "claude.sh"), "echo hi")
			earlierLink(t, home, filepath.Join(home, ".bashrc.d", "claude.sh"))
			return nil
		}, false},
		{"chain at another tool's JSON", func(t *testing.T, home string) []string {
			writeState(t, filepath.Join(home, ".config", "Code", "User", "settings.json"), `{"a":1}`)
			earlierLink(t, home, filepath.Join(home, ".config", "Code", "User", "settings.json"))
			return nil
		}, false},
		{"chain at a file to create", func(t *testing.T, home string) []string {
			os.MkdirAll(filepath.Join(home, ".bashrc.d"), 0o700)
			earlierLink(t, home, filepath.Join(home, ".bashrc.d", "claude.sh"))
			return nil
		}, false},
		{"dotfiles, absent", func(t *testing.T, home string) []string {
			mustLink(t, "dotfiles/claude.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false},
		{"chain at a FIFO", func(t *testing.T, home string) []string {
			unix.Mkfifo(filepath.Join(home, "dotfiles", "claude.json"), 0o600)
			mustLink(t, "dotfiles/claude.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, via := linkHome(t)
			writable := c.setup(t, home)
			named := home
			if c.via {
				named = via
			}
			if syncs := syncWith(t, named, append(writable, filepath.Join(named, ".claude"))); len(syncs) != 0 {
				t.Errorf("synced: home is %s", syncs[0].real)
			}
			if b, _ := os.ReadFile(filepath.Join(home, ".claude", ".claude.json")); len(b) != 0 {
				t.Errorf("working copy = %q, want none", b)
			}
		})
	}
}

// earlierLink is the user's ~/.claude.json -> dotfiles2/claude.json, which
// a launch with --allow-write ~/dotfiles2 re-pointed at target.
func earlierLink(t *testing.T, home, target string) {
	t.Helper()
	os.MkdirAll(filepath.Join(home, "dotfiles2"), 0o700)
	mustLink(t, target, filepath.Join(home, "dotfiles2", "claude.json"))
	mustLink(t, "dotfiles2/claude.json", filepath.Join(home, ".claude.json"))
}

func writeState(t *testing.T, path, data string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestStateSyncLinkSynced: links the program cannot change — a dotfile
// manager's to a file outside the writable set, one on the way to home
// itself — are followed, and the program's state goes to the file they
// lead to, the links kept; a plain file in a writable home is synced.
func TestStateSyncLinkSynced(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(t *testing.T, home string) (writable []string)
		via      bool
		stateIn  string // relative to home: the file that gets the state
		existing bool
	}{
		{"dotfiles", func(t *testing.T, home string) []string {
			mustLink(t, "dotfiles/claude.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false, "dotfiles/claude.json", true},
		{"GNU stow", func(t *testing.T, home string) []string {
			os.MkdirAll(filepath.Join(home, "dotfiles", "claude"), 0o700)
			mustLink(t, "dotfiles/claude/.claude.json", filepath.Join(home, ".claude.json"))
			return nil
		}, false, "dotfiles/claude/.claude.json", true},
		{"home-manager out-of-store link", func(t *testing.T, home string) []string {
			store := filepath.Join(home, "nix", "store", "abc-hm_.claude.json")
			os.MkdirAll(filepath.Dir(store), 0o700)
			mustLink(t, filepath.Join(home, "dotfiles", "claude.json"), store)
			mustLink(t, store, filepath.Join(home, ".claude.json"))
			return nil
		}, false, "dotfiles/claude.json", true},
		{"empty", func(t *testing.T, home string) []string {
			writeState(t, filepath.Join(home, ".claude.json"), "")
			return nil
		}, false, ".claude.json", false},
		{"home named through a link", func(t *testing.T, home string) []string { return nil }, true, ".claude.json", true},
		{"writable home", func(t *testing.T, home string) []string { return []string{home} }, false, ".claude.json", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, via := linkHome(t)
			writable := c.setup(t, home)
			if c.existing {
				os.WriteFile(filepath.Join(home, c.stateIn), []byte(`{"s":"v0"}`), 0o640)
			}
			named := home
			if c.via {
				named = via
			}
			syncs := syncWith(t, named, append(writable, filepath.Join(named, ".claude")))
			if len(syncs) != 1 {
				t.Fatal("not synced")
			}
			work := filepath.Join(home, ".claude", ".claude.json")
			if b, _ := os.ReadFile(work); c.existing && string(b) != `{"s":"v0"}` {
				t.Errorf("working copy = %q, want v0", b)
			}
			os.WriteFile(work, []byte(`{"s":"v1"}`), 0o666)
			if w, err := syncs[0].syncOut(); w != "" || err != nil {
				t.Fatalf("syncOut: %q, %v", w, err)
			}
			fi, err := os.Stat(filepath.Join(home, c.stateIn))
			if b, _ := os.ReadFile(filepath.Join(home, c.stateIn)); string(b) != `{"s":"v1"}` || err != nil {
				t.Fatalf("%s = %q, %v; want v1", c.stateIn, b, err)
			}
			if want := map[bool]os.FileMode{true: 0o640, false: 0o600}[c.existing]; fi.Mode().Perm() != want {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), want)
			}
			if c.stateIn != ".claude.json" {
				if fi, err := os.Lstat(filepath.Join(home, ".claude.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("~/.claude.json is no longer a link (%v)", err)
				}
			}
		})
	}
}

// TestStateSyncRepointedDuringRun: with a writable home, the program
// replaces a plain ~/.claude.json by a link to a file outside the
// writable set, with home's content (the digest matches), and writes its
// state: syncOut must not write through that link.
func TestStateSyncRepointedDuringRun(t *testing.T) {
	home, _ := linkHome(t)
	homeFile := filepath.Join(home, ".claude.json")
	os.WriteFile(homeFile, []byte(`{"s":"v0"}`), 0o600)
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte(`{"s":"v0"}`), 0o600)
	syncs := syncWith(t, home, []string{home, filepath.Join(home, ".claude")})
	if len(syncs) != 1 {
		t.Fatal("not synced")
	}
	// The program:
	os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), []byte("pwned"), 0o600)
	os.Remove(homeFile)
	mustLink(t, target, homeFile)
	w, err := syncs[0].syncOut()
	if b, _ := os.ReadFile(target); string(b) != `{"s":"v0"}` {
		t.Errorf("the target outside the writable set got %q", b)
	}
	if !strings.Contains(w, "not synced") || err != nil {
		t.Errorf("syncOut: %q, %v; want a warning", w, err)
	}
}

// TestStateSyncTargetReplacedDuringRun: the dotfile a link leads to is
// replaced while the program runs by another file with the same content:
// the state is not written into it, the working copy kept.
func TestStateSyncTargetReplacedDuringRun(t *testing.T) {
	home, _ := linkHome(t)
	target := filepath.Join(home, "dotfiles", "claude.json")
	writeState(t, target, "{}")
	mustLink(t, "dotfiles/claude.json", filepath.Join(home, ".claude.json"))
	syncs := syncWith(t, home, []string{filepath.Join(home, ".claude")})
	if len(syncs) != 1 {
		t.Fatal("not synced")
	}
	writeState(t, target+".new", "{}")
	os.Rename(target+".new", target)
	os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), []byte(`{"pwned":1}`), 0o600)
	w, err := syncs[0].syncOut()
	if b, _ := os.ReadFile(target); string(b) != "{}" {
		t.Errorf("the replaced target got %q", b)
	}
	if !strings.Contains(w, "replaced") || err != nil {
		t.Errorf("syncOut: %q, %v; want a warning", w, err)
	}
}

// TestStateSyncLinkIntoMissingDir: a dotfile link into a directory that
// is gone leaves nowhere to put the state back: not synced, and the
// launch goes on.
func TestStateSyncLinkIntoMissingDir(t *testing.T) {
	home, _ := linkHome(t)
	mustLink(t, "gone/claude.json", filepath.Join(home, ".claude.json"))
	if syncs := syncWith(t, home, nil); len(syncs) != 0 {
		t.Errorf("synced")
	}
}

// TestOpenPathChecked: without openat2, the directory is opened and then
// checked to be the path resolved: a symlink on the way is refused.
func TestOpenPathChecked(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o700)
	mustLink(t, "real", filepath.Join(dir, "link"))
	for _, c := range []struct {
		path string
		ok   bool
	}{{filepath.Join(dir, "real"), true}, {filepath.Join(dir, "link", "."), false}} {
		fd, err := openPathChecked(c.path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.path, err, c.ok)
		}
		if err == nil {
			unix.Close(fd)
		}
	}
}

// TestStateSyncHiddenByFlag: a --hide path counts as a credential store:
// a dotfile link into it is not synced, in any mode.
func TestStateSyncHiddenByFlag(t *testing.T) {
	home, _ := linkHome(t)
	vault := filepath.Join(home, "vault")
	os.MkdirAll(vault, 0o700)
	os.WriteFile(filepath.Join(vault, "claude.json"), []byte(`{"secret":"S"}`), 0o600)
	mustLink(t, filepath.Join(vault, "claude.json"), filepath.Join(home, ".claude.json"))
	syncs, err := syncIn(home, nil, profiles.ProgramFor("claude"), vault)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".claude", ".claude.json")); strings.Contains(string(b), "secret") {
		t.Errorf("the --hide file reached the working copy: %q (%d syncs)", b, len(syncs))
	}
}

func TestIsTempOf(t *testing.T) {
	names := []string{".claude.json", ".claude.json.omega-base"}
	for _, c := range []struct {
		entry string
		want  bool
	}{
		{"..claude.json.omega-15qttj0udzdi0", true},         // write's
		{"..claude.json.omega-3495971333", true},            // atomicWrite's
		{"..claude.json.omega-base.omega-1957142578", true}, // the base file's
		{".claude.json", false},                             // the state itself
		{".claude.json.omega-base", false},                  // the base file
		{".claude.json.omega-kept-20261128-095752", false},  // kept aside
		{"..claude.json.omega-", false},                     // no random part
		{"..claude.json.omega-base", false},                 // not random
		{"..claude.json.omega-Notes", false},                // a user's name
		{"..claude.json.omega-base.omega-kept-1", false},    // not random
		{"..other.json.omega-1957142578", false},            // another file's
		{"x..claude.json.omega-1957142578", false},          // not at the start
	} {
		if got := isTempOf(c.entry, names); got != c.want {
			t.Errorf("isTempOf(%q) = %v, want %v", c.entry, got, c.want)
		}
	}
}
