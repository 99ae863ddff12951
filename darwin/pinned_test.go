package darwin

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestRenderPinsAncestors: Seatbelt checks a rename on the directory
// renamed, not on what it holds. A protected path (the config file, a
// --read-only path, a credential store) whose directory, or a directory
// above it, lies in a writable root could be moved aside with it
// (mv ~/.omega /tmp/old; mv /tmp/evil ~/.omega, with an evil
// config.toml), as Linux's mount points prevent. Those directories are
// denied their own rename and removal (file-write-unlink, which a rename
// checks on its source), up to the writable root.
func TestRenderPinsAncestors(t *testing.T) {
	tests := []struct {
		name      string
		in        profiles.Policy
		want, not []string
	}{
		{"data dir's config", profiles.Policy{Mode: profiles.ModeRX},
			[]string{"/Users/alice/.omega"}, []string{"/Users/alice"}},
		{"data dir below a writable root", profiles.Policy{Mode: profiles.ModeRX,
			DataDir: "/Users/alice/work/a/.omega", AllowWrite: []string{"/Users/alice/work"}},
			[]string{"/Users/alice/work/a/.omega", "/Users/alice/work/a", "/Users/alice/work"}, []string{"/Users/alice"}},
		{"read-only", profiles.Policy{Mode: profiles.ModeSandbox,
			AllowWrite: []string{"/Users/alice/src"}, ReadOnly: []string{"/Users/alice/src/sub/keep"}},
			[]string{"/Users/alice/src/sub", "/Users/alice/src"}, []string{"/Users/alice"}},
		{"credential stores below a writable home", profiles.Policy{Mode: profiles.ModeSandbox,
			AllowWrite: []string{"/Users/alice"}},
			[]string{"/Users/alice/.config", "/Users/alice/Library/Application Support", "/Users/alice/Library", "/Users/alice"}, nil},
		{"credential stores, home not writable", profiles.Policy{Mode: profiles.ModeSandbox},
			nil, []string{"/Users/alice/.config", "/Users/alice/Library"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, err := Render(policy(t, tt.in), nil)
			if err != nil {
				t.Fatal(err)
			}
			text := expand(pr)
			pinned := pinnedBlock(text)
			// Only the move and removal of the directory itself, as
			// Anthropic's sandbox-runtime pins ancestors: a broader
			// write deny on a home or ~/Library (chmod, xattrs, times)
			// would refuse more than the pin needs.
			if tt.want != nil && !strings.Contains(pinned, "(deny file-write-unlink\n  (literal") {
				t.Errorf("pins not a file-write-unlink block:\n%s", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(pinned, `(literal "`+w+`")`) {
					t.Errorf("%s not pinned:\n%s", w, text)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(pinned, `(literal "`+n+`")`) {
					t.Errorf("%s pinned:\n%s", n, text)
				}
			}
		})
	}
}

// pinnedBlock is the text of the profile's last rules, after the
// writable roots' allow, where the pins must be (the last rule wins).
func pinnedBlock(text string) string {
	i := strings.Index(text, "(allow file-write-data\n  (literal \"/dev/null\")")
	if i < 0 {
		return ""
	}
	return text[i:]
}

// TestPinsOnlyExisting: a missing directory holds nothing to move aside;
// pinning it would keep the program from creating it (mkdir ~/.cargo
// under --allow-write ~).
func TestPinsOnlyExisting(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox, AllowWrite: []string{testHome}})
	exists := func(d string) bool { return d != testHome+"/.cargo" }
	pr, _, err := build(p, []string{"/bin/true"}, Options{Exists: exists})
	if err != nil {
		t.Fatal(err)
	}
	text := expand(pr)
	if strings.Contains(pinnedBlock(text), `(literal "`+testHome+`/.cargo")`) {
		t.Errorf("missing ~/.cargo pinned:\n%s", text)
	}
	if !strings.Contains(pinnedBlock(text), `(literal "`+testHome+`/.config")`) {
		t.Errorf("~/.config not pinned:\n%s", text)
	}
}
