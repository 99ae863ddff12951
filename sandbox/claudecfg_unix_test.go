//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omega-run/omega-run/profiles"
)

// TestWatchClaude: the settings files in the program's reach are read
// before the run and compared after it: ~/.claude's, a CLAUDE_CONFIG_DIR's,
// each writable root's and the working directory's .claude/; what lies
// out of reach (the host's /tmp in sandbox mode, a read-only directory)
// is not looked at.
func TestWatchClaude(t *testing.T) {
	hook := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"evil"}]}]}}`
	cases := []struct {
		name   string
		mode   profiles.Mode
		rel    string // the file the program writes, below the test's dir
		before string // "": absent
		after  func(p string) error
		want   []string // keys the report names
	}{
		{"user settings", profiles.ModeSandbox, "home/.claude/settings.json", `{}`, write(hook), []string{"hooks"}},
		{"user settings, unrelated", profiles.ModeSandbox, "home/.claude/settings.json", `{}`, write(`{"model":"x"}`), nil},
		{"user settings.local.json", profiles.ModeRX, "home/.claude/settings.local.json", "", write(hook), []string{"hooks"}},
		{"CLAUDE_CONFIG_DIR", profiles.ModeSandbox, "proj/cfg/settings.json", "", write(hook), []string{"hooks"}},
		{"project settings.local.json", profiles.ModeSandbox, "proj/.claude/settings.local.json", `{}`, write(hook), []string{"hooks"}},
		{"project settings.json made", profiles.ModeSandbox, "proj/.claude/settings.json", "", write(hook), []string{"hooks"}},
		{"workspace", profiles.ModeSandbox, "home/.omega/workspace/.claude/settings.local.json", "", write(hook), []string{"hooks"}},
		{"working directory", profiles.ModeSandbox, "proj/sub/.claude/settings.local.json", "", write(hook), []string{"hooks"}},
		{"removed", profiles.ModeSandbox, "home/.claude/settings.json", hook, os.Remove, nil},
		{"a FIFO left", profiles.ModeSandbox, "home/.claude/settings.json", `{}`, fifo, []string{"unreadable"}},
		{"out of reach: not writable", profiles.ModeSandbox, "ro/.claude/settings.local.json", "", write(hook), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"home/.claude", "home/.omega/workspace", "proj/sub", "ro"} {
				os.MkdirAll(filepath.Join(dir, d), 0o700)
			}
			p := filepath.Join(dir, c.rel)
			os.MkdirAll(filepath.Dir(p), 0o700)
			if c.before != "" {
				os.WriteFile(p, []byte(c.before), 0o600)
			}
			pol, err := profiles.New(profiles.Policy{Mode: c.mode, Home: filepath.Join(dir, "home"), AllowWrite: []string{filepath.Join(dir, "proj")}})
			if err != nil {
				t.Fatal(err)
			}
			w := watchClaude(pol, []string{"", "relative", filepath.Join(dir, "proj", "cfg")}, filepath.Join(dir, "proj", "sub"))
			if err := c.after(p); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range w.changes() {
				if strings.Contains(l, "unreadable") {
					got = append(got, "unreadable")
				} else {
					got = append(got, keysOf([]string{l})...)
				}
				if !strings.Contains(l, shown(pol.Home, p)) {
					t.Errorf("%q does not name %s", l, shown(pol.Home, p))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", w.changes(), c.want)
			}
		})
	}
}

func write(s string) func(string) error {
	return func(p string) error { return os.WriteFile(p, []byte(s), 0o600) }
}

func fifo(p string) error {
	os.Remove(p)
	return syscall.Mkfifo(p, 0o600)
}

// TestWatchClaudeHostTmp: in sandbox mode the host's /tmp is out of the
// program's reach (its /tmp is private), in rx it is not.
func TestWatchClaudeHostTmp(t *testing.T) {
	for _, c := range []struct {
		mode profiles.Mode
		want bool
	}{{profiles.ModeSandbox, false}, {profiles.ModeRX, true}} {
		pol, err := profiles.New(profiles.Policy{Mode: c.mode, Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		w := watchClaude(pol, []string{"/tmp/cfg"}, "/tmp/proj")
		got := slices.ContainsFunc(w.files, func(f cfgFile) bool {
			return strings.HasPrefix(f.path, "/tmp/cfg/") || strings.HasPrefix(f.path, "/tmp/proj/")
		})
		if got != c.want {
			t.Errorf("%s: host /tmp watched %v, want %v", c.mode, got, c.want)
		}
	}
}

// TestStateSyncReport: what goes home from Claude Code's working copy is
// compared with home as it was copied in; a working copy that did not
// change, or does not go home, is not.
func TestStateSyncReport(t *testing.T) {
	claude := profiles.ProgramFor("claude")
	cases := []struct {
		name, home, work string
		homeMeanwhile    string // home rewritten while the program runs
		want             []string
	}{
		{"server added", `{"numStartups":1}`, `{"numStartups":2,"mcpServers":{"e":{"command":"x"}}}`, "", []string{"mcpServers"}},
		{"unrelated", `{"numStartups":1}`, `{"numStartups":2}`, "", nil},
		{"untouched", `{"mcpServers":{"e":{"command":"x"}}}`, "", "", nil},
		{"no home file", "", `{"mcpServers":{"e":{"command":"x"}}}`, "", []string{"mcpServers"}},
		{"home changed meanwhile: stays in the working copy", `{}`, `{"mcpServers":{"e":{"command":"x"}}}`, `{"numStartups":5}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			os.Mkdir(filepath.Join(home, ".claude"), 0o700)
			state, work := filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", ".claude.json")
			if c.home != "" {
				os.WriteFile(state, []byte(c.home), 0o600)
			}
			syncs, err := syncIn(home, nil, claude)
			if err != nil || len(syncs) != 1 {
				t.Fatalf("syncIn: %v, %d", err, len(syncs))
			}
			if c.work != "" {
				os.WriteFile(work, []byte(c.work), 0o600)
			}
			if c.homeMeanwhile != "" {
				os.WriteFile(state, []byte(c.homeMeanwhile), 0o600)
			}
			if _, err := syncs[0].syncOut(); err != nil {
				t.Fatal(err)
			}
			if got := keysOf(syncs[0].changed); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", syncs[0].changed, c.want)
			}
			for _, l := range syncs[0].changed {
				if !strings.Contains(l, " in ~/.claude.json: ") {
					t.Errorf("%q does not name ~/.claude.json", l)
				}
			}
		})
	}
}

// BenchmarkWatchClaude is the launch's added cost before the run: a
// policy with a project, ~/.claude/settings.json of 1 KB, the other
// files absent.
func BenchmarkWatchClaude(b *testing.B) {
	home := b.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"model":"opus","env":{"A":"`+strings.Repeat("x", 1000)+`"}}`), 0o600)
	proj := filepath.Join(home, "proj")
	os.Mkdir(proj, 0o700)
	pol, err := profiles.New(profiles.Policy{Mode: profiles.ModeSandbox, Home: home, AllowWrite: []string{proj}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		watchClaude(pol, []string{""}, proj)
	}
}

// BenchmarkStateChanges is the cost after a Claude Code run, when its
// state changed: both copies of a ~/.claude.json of 2000 projects
// (about 8 MB) decoded.
func BenchmarkStateChanges(b *testing.B) {
	var projects []string
	for i := range 2000 {
		projects = append(projects, fmt.Sprintf(`"/home/u/p%d":{"history":[{"display":%q}],"mcpServers":{},"hasTrustDialogAccepted":true}`, i, strings.Repeat("y", 4000)))
	}
	before := []byte(`{"numStartups":1,"projects":{` + strings.Join(projects, ",") + `}}`)
	after := []byte(`{"numStartups":2,"projects":{` + strings.Join(projects, ",") + `}}`)
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if c := stateChanges("~/.claude.json", before, after); c != nil {
			b.Fatal(c)
		}
	}
}

// TestChangesNotQuadratic: a planted file of many repeated keys (or many
// "projects" objects) is compared value by value through a set, not
// every value against every other: 16,000 of each took 37 s and 55 s, and
// the launcher hung after the run. The bound is far above what the
// comparison takes (under 2 s of CPU with -race); it only catches the
// quadratic form. It counts this process's CPU time, not the clock's:
// the linear form took 8 s by the clock with -race at load 14, and 20 s
// at a twelfth of a CPU.
func TestChangesNotQuadratic(t *testing.T) {
	const n = 16000
	var projects, servers []string
	for i := range n {
		projects = append(projects, fmt.Sprintf(`"projects":{"p%d":{"mcpServers":{"s":{"command":"x%d"}}}}`, i, i))
		servers = append(servers, fmt.Sprintf(`"mcpServers":{"s%d":{"command":"x"}}`, i))
	}
	state := "{" + strings.Join(projects, ",") + "}"
	dup := "{" + strings.Join(servers, ",") + "}"
	done := make(chan int, 1)
	start := cpuTime(t)
	go func() {
		done <- len(stateChanges("~/.claude.json", []byte(dup), []byte(state))) +
			len(stateChanges("~/.claude.json", []byte(dup), []byte(dup+" ")))
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case got := <-done:
			if got != n {
				t.Errorf("%d changes, want one per project (%d)", got, n)
			}
			return
		case <-tick.C:
			if used := cpuTime(t) - start; used > 20*time.Second {
				t.Fatalf("the comparison has taken %v of CPU, more than 20 s", used.Round(100*time.Millisecond))
			}
		}
	}
}

// cpuTime is the CPU time this process has used, its threads' together.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
