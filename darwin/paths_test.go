package darwin

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// fakeResolver maps exact paths; everything else resolves to itself.
func fakeResolver(links map[string]string) Resolver {
	return func(p string) (string, error) {
		if t, ok := links[p]; ok {
			return t, nil
		}
		return p, nil
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		in      string
		links   map[string]string
		want    string
		wantErr bool
	}{
		{in: "/tmp", want: "/private/tmp"},
		{in: "/tmp/x/../y", want: "/private/tmp/y"},
		{in: "/tmpfoo", want: "/tmpfoo"},
		{in: "/var/folders/ab", want: "/private/var/folders/ab"},
		{in: "/etc/hosts", want: "/private/etc/hosts"},
		{in: "/private/tmp", want: "/private/tmp"},
		{in: "/Users//alice/./src/", want: "/Users/alice/src"},
		{in: "/Users/alice/link", links: map[string]string{"/Users/alice/link": "/tmp/real"}, want: "/private/tmp/real"},
		{in: "/Users/alice/rel", links: map[string]string{"/Users/alice/rel": "real"}, wantErr: true},
		{in: "relative", wantErr: true},
		{in: "", wantErr: true},
		{in: "/a\x00b", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var r Resolver
			if tt.links != nil {
				r = fakeResolver(tt.links)
			}
			got, err := Canonical(tt.in, r)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Canonical(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestCanonicalResolverError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Canonical("/x", func(string) (string, error) { return "", boom })
	if !errors.Is(err, boom) {
		t.Errorf("error = %v, want it to wrap %v", err, boom)
	}
}

func TestResolveExisting(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	tests := []struct{ in, want string }{
		{link, real},
		{filepath.Join(link, "missing", "deeper"), filepath.Join(real, "missing", "deeper")},
		{filepath.Join(dir, "absent"), filepath.Join(dir, "absent")},
	}
	for _, tt := range tests {
		got, err := ResolveExisting(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ResolveExisting(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestHostResolver(t *testing.T) {
	if got := HostResolver() != nil; got != (runtime.GOOS == "darwin") {
		t.Errorf("HostResolver() non-nil = %v on %s", got, runtime.GOOS)
	}
}

func TestRenderResolves(t *testing.T) {
	links := map[string]string{
		"/Users/alice/proj":    "/Volumes/Work/proj",
		"/Users/alice/.claude": "/Users/alice/dotfiles/claude",
		"/Users/alice/.ssh":    "/Volumes/Keys/ssh",
		"/Users/alice/.aws":    "/Volumes/Keys/ssh", // deduplicated
	}
	p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox, AllowWrite: []string{"/Users/alice/proj"}})
	pr, err := Render(p, fakeResolver(links))
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{
		{"DATA_DIR", "/Users/alice/.omega"},
		{"CLAUDE_DIR", "/Users/alice/dotfiles/claude"},
		{"WRITABLE_ROOT_0", "/Volumes/Work/proj"},
		{"CONFIG_FILE0", "/Users/alice/.omega/config.toml"},
		{"HOME_DIR", "/Users/alice"},
		{"CREDENTIAL_TARGET_0", "/Volumes/Keys/ssh"},
		{"PINNED_0", "/Users/alice/.omega"},
	}
	if !slices.Equal(pr.Params, want) {
		t.Errorf("params = %v\nwant     %v", pr.Params, want)
	}
}

func TestRenderRejectsRootThroughSymlink(t *testing.T) {
	links := map[string]string{"/Users/alice/everything": "/"}
	for _, in := range []profiles.Policy{
		{Mode: profiles.ModeRX, AllowWrite: []string{"/Users/alice/everything"}},
		{Mode: profiles.ModeRX, DataDir: "/Users/alice/everything"},
	} {
		if _, err := Render(policy(t, in), fakeResolver(links)); err == nil {
			t.Errorf("%+v: a root resolving to / was accepted", in)
		}
	}
}

func TestRenderDeduplicatesRoots(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeRX, AllowWrite: []string{
		"/tmp", "/private/var/folders", "/Users/alice/.omega", "/Users/alice/src", "/Users/alice/src/",
	}})
	pr, err := Render(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{
		{"DATA_DIR", "/Users/alice/.omega"},
		{"CLAUDE_DIR", "/Users/alice/.claude"},
		{"WRITABLE_ROOT_0", "/Users/alice/src"},
		{"CONFIG_FILE0", "/Users/alice/.omega/config.toml"},
		{"PINNED_0", "/Users/alice/.omega"},
	}
	if !slices.Equal(pr.Params, want) {
		t.Errorf("params = %v, want %v", pr.Params, want)
	}
}

// TestRenderConfigFileLinked: a config file that is a symlink gets both
// its name (an unlink or rename acts on the link) and its target denied;
// a --config in a writable root is carved out too.
func TestRenderConfigFileLinked(t *testing.T) {
	links := map[string]string{"/Users/alice/.omega/config.toml": "/Users/alice/dotfiles/omega.toml"}
	p := policy(t, profiles.Policy{Mode: profiles.ModeRX, Config: "/Users/alice/.omega/workspace/mine.toml"})
	pr, err := Render(p, fakeResolver(links))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []Param{
		{"CONFIG_FILE0", "/Users/alice/.omega/config.toml"},
		{"CONFIG_FILE1", "/Users/alice/dotfiles/omega.toml"},
		{"CONFIG_FILE2", "/Users/alice/.omega/workspace/mine.toml"},
	} {
		if !slices.Contains(pr.Params, want) {
			t.Errorf("params = %v, want %v among them", pr.Params, want)
		}
	}
	if !strings.Contains(pr.Text, "(deny file-write* file-link\n  (literal (param \"CONFIG_FILE0\"))\n  (literal (param \"CONFIG_FILE1\"))\n  (literal (param \"CONFIG_FILE2\"))\n)") {
		t.Errorf("no deny block for the config files:\n%s", pr.Text)
	}
}

// TestCanonicalDataVolume: a path on the Data volume spelled through
// /System/Volumes/Data gets the firmlinked spelling macOS checks.
func TestCanonicalDataVolume(t *testing.T) {
	for in, want := range map[string]string{
		"/System/Volumes/Data/Users/alice/src":         "/Users/alice/src",
		"/System/Volumes/Data/Users":                   "/Users",
		"/System/Volumes/Data/private/var/folders/ab":  "/private/var/folders/ab",
		"/System/Volumes/Data/Volumes/Work":            "/Volumes/Work",
		"/System/Volumes/Data/usr/local/bin":           "/usr/local/bin",
		"/System/Volumes/Data/System/Library/Caches/x": "/System/Library/Caches/x",
		"/System/Volumes/Data/../Data/Library/x":       "/Library/x",
		"/System/Volumes/Data/opt/homebrew":            "/opt/homebrew",
		"/System/Volumes/Data/nix/store":               "/System/Volumes/Data/nix/store", // a volume of its own, no firmlink
		"/System/Volumes/Data/usr/localx":              "/System/Volumes/Data/usr/localx",
		"/System/Volumes/Data/Usersx":                  "/System/Volumes/Data/Usersx",
		"/System/Volumes/Data":                         "/System/Volumes/Data",
		"/System/Volumes/Preboot/Users":                "/System/Volumes/Preboot/Users",
	} {
		if got, err := Canonical(in, nil); err != nil || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// What a symlink resolves to is mapped too.
	links := fakeResolver(map[string]string{"/Users/alice/w": "/System/Volumes/Data/Volumes/Work"})
	if got, _ := Canonical("/Users/alice/w", links); got != "/Volumes/Work" {
		t.Errorf("through a link: %q, want /Volumes/Work", got)
	}
}
