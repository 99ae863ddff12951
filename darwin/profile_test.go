package darwin

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

const testHome = "/Users/alice"

// policy builds a Policy the way the CLI does, so the golden files show
// what users get.
func policy(t *testing.T, in profiles.Policy) profiles.Policy {
	t.Helper()
	if in.Home == "" {
		in.Home = testHome
	}
	p, err := profiles.New(in)
	if err != nil {
		t.Fatalf("profiles.New: %v", err)
	}
	return p
}

func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v; run `go test ./darwin -update` to create it", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the rendered output; if the change is intended, run `go test ./darwin -update`\n--- got:\n%s--- want:\n%s",
			file, got, want)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		in   profiles.Policy
	}{
		{"rx", profiles.Policy{Mode: profiles.ModeRX}},
		{"sandbox", profiles.Policy{Mode: profiles.ModeSandbox}},
		{"allow_write", profiles.Policy{Mode: profiles.ModeRX, AllowWrite: []string{
			"/Users/alice/src/project", "/var/tmp/cache", "/tmp", "/etc/../Volumes/Work",
		}}},
		{"net_none", profiles.Policy{Mode: profiles.ModeSandbox, Net: profiles.NetNone}},
		{"odd_paths", profiles.Policy{
			Mode:    profiles.ModeSandbox,
			Home:    "/Users/Jane Doe",
			DataDir: "/Users/Jane Doe/Données ömega 😀",
			AllowWrite: []string{
				`/Users/Jane Doe/it's "quoted"`,
				`/tmp/a\b)(c;d`,
				"/Users/Jane Doe/new\nline",
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Explain(policy(t, tt.in), []string{"/bin/echo", "hello world"})
			if err != nil {
				t.Fatal(err)
			}
			assertGolden(t, tt.name, got)
		})
	}
}

// designRX is DESIGN.md's rx profile with one --allow-write, hard links
// (file-link, which file-write* does not cover) confined like writes,
// followed by the device block the issue asks for and the config file
// carved out of the data dir (a program could otherwise rewrite its next
// launch's policy: mode = "rwx"), the data dir itself pinned (it could
// otherwise be moved aside, config and all), and signals kept to the
// program's own processes.
const designRX = `(version 1)
(allow default)
(deny file-write*)
(deny file-link)
(allow file-write* file-link
  (subpath "{data_dir}")
  (subpath "/private/tmp")
  (subpath "/private/var/folders")
  (subpath "{home}/.claude")
  (subpath "/private/var/www")
)
(allow file-write-data
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/random")
  (literal "/dev/urandom")
  (literal "/dev/dtracehelper")
)
(allow file-write*
  (literal "/dev/tty")
  (literal "/dev/ptmx")
  (regex #"^/dev/ttys[0-9]+$")
  (regex #"^/dev/fd/[0-9]+$")
)
(deny file-write* file-link
  (literal "{data_dir}/config.toml")
)
(deny file-write-unlink
  (literal "{data_dir}")
)
(deny signal)
(allow signal (target same-sandbox))
`

// expand substitutes each (param "X") with its value as a string literal,
// turning the rendered profile back into the design's spliced form. The
// test values hold no character that needs escaping.
func expand(pr Profile) string {
	text := pr.Text
	for _, p := range pr.Params {
		text = strings.ReplaceAll(text, `(param "`+p.Name+`")`, `"`+p.Value+`"`)
	}
	return text
}

func TestRXMatchesDesign(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeRX, AllowWrite: []string{"/var/www"}})
	pr, err := Render(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("{data_dir}", testHome+"/.omega", "{home}", testHome).Replace(designRX)
	if got := expand(pr); got != want {
		t.Errorf("expanded rx profile:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderModes(t *testing.T) {
	tests := []struct {
		name        string
		in          profiles.Policy
		wantCreds   bool
		wantNetDeny bool
	}{
		{"rx", profiles.Policy{Mode: profiles.ModeRX}, false, false},
		{"rx net none", profiles.Policy{Mode: profiles.ModeRX, Net: profiles.NetNone}, false, true},
		{"sandbox", profiles.Policy{Mode: profiles.ModeSandbox}, true, false},
		{"sandbox net none", profiles.Policy{Mode: profiles.ModeSandbox, Net: profiles.NetNone}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, err := Render(policy(t, tt.in), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(pr.Text, "(deny file-read*"); got != tt.wantCreds {
				t.Errorf("credential deny present = %v, want %v", got, tt.wantCreds)
			}
			if got := strings.HasSuffix(pr.Text, "(deny network*)\n"); got != tt.wantNetDeny {
				t.Errorf("network deny last = %v, want %v", got, tt.wantNetDeny)
			}
			if tt.wantCreds {
				for _, s := range CredentialStores {
					rule := `(subpath (string-append (param "HOME_DIR") "/` + s + `"))`
					if !strings.Contains(pr.Text, rule) {
						t.Errorf("missing %s", rule)
					}
				}
			}
		})
	}
}

func TestRenderRejectsRWX(t *testing.T) {
	for _, m := range []profiles.Mode{profiles.ModeRWX, ""} {
		if _, err := Render(profiles.Policy{Mode: m, DataDir: "/d", Home: "/h"}, nil); err == nil {
			t.Errorf("mode %q: rendered a profile, want an error", m)
		}
	}
}

func TestCredentialStoresAreSafe(t *testing.T) {
	for _, s := range CredentialStores {
		if !safeRelative(s) {
			t.Errorf("credential store %q cannot be spliced into SBPL", s)
		}
	}
	for _, bad := range []string{"", "/abs", "../up", "a/../../b", `x"y`, "x\ny", "a)b", `a\b`, "./a"} {
		if safeRelative(bad) {
			t.Errorf("safeRelative(%q) = true, want false", bad)
		}
	}
}

func TestRenderRejectsUnsafeCredentialStore(t *testing.T) {
	saved := CredentialStores
	t.Cleanup(func() { CredentialStores = saved })
	CredentialStores = append([]string{`.ssh") (allow file-read*`}, saved...)
	p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox})
	if _, err := Render(p, nil); err == nil {
		t.Fatal("rendered an unsafe credential store name, want an error")
	}
}
