package profiles

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func TestPromptConstraintGolden(t *testing.T) {
	for _, m := range Modes {
		t.Run(string(m), func(t *testing.T) {
			got, err := PromptConstraint(m, "/home/alice/.omega/workspace")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "prompt_"+string(m), got)
		})
	}
	if _, err := PromptConstraint("bogus", "/w"); err == nil {
		t.Error("unknown mode must be an error")
	}
}

func TestDisplayName(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Modes {
		n := DisplayName(m)
		if n == "" || n == string(m) || seen[n] {
			t.Errorf("DisplayName(%s) = %q", m, n)
		}
		seen[n] = true
	}
}

// TestPolicyPromptGolden: the prompt for a policy names what the user
// added to a mode (writable directories, read-only and hidden paths, no
// network), and says nothing more for a mode's defaults or for rwx.
func TestPolicyPromptGolden(t *testing.T) {
	const ws = "/home/alice/.omega/workspace"
	extra := Policy{AllowWrite: []string{"/home/alice/src"}, ReadOnly: []string{"/home/alice/src/.env"},
		Hide: []string{"/home/alice/notes"}, Net: NetNone}
	for _, m := range Modes {
		t.Run(string(m), func(t *testing.T) {
			bare, err := PolicyPrompt(Policy{Mode: m}, ws)
			if want, _ := PromptConstraint(m, ws); err != nil || bare != want {
				t.Errorf("defaults: %q (%v), want PromptConstraint's %q", bare, err, want)
			}
			p := extra
			p.Mode = m
			got, err := PolicyPrompt(p, ws)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "policyprompt_"+string(m), got)
		})
	}
}

// checkGolden compares got with testdata/NAME.golden (-update rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run: go test ./profiles -update)", err)
	}
	if got != string(want) {
		t.Errorf("differs from %s (run: go test ./profiles -update)\ngot:\n%s", golden, got)
	}
}

// TestPromptSaysProjectFilesReadOnly: in sandbox mode the files that run
// code later stay read-only inside writable directories, and git config
// without --global fails there with "Device or resource busy", an error
// the prompt did not name: a model told only of "Permission denied" and
// "Read-only file system" took it for a fault to work around. With
// --writable-git-config git's stay out of it; rx holds none of them.
func TestPromptSaysProjectFilesReadOnly(t *testing.T) {
	const ws = "/w"
	for _, c := range []struct {
		pol      Policy
		want     []string
		unwanted []string
	}{
		{Policy{Mode: ModeSandbox}, []string{".git/config", ".envrc", ".mcp.json", "Device or resource busy"}, nil},
		{Policy{Mode: ModeSandbox, WritableGitConfig: true}, []string{".envrc", ".mcp.json"}, []string{".git/config", "Device or resource busy"}},
		{Policy{Mode: ModeRX}, nil, []string{".git/config", ".envrc"}},
	} {
		got, err := PolicyPrompt(c.pol, ws)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s, writable git config %v: no %q in\n%s", c.pol.Mode, c.pol.WritableGitConfig, w, got)
			}
		}
		for _, u := range c.unwanted {
			if strings.Contains(got, u) {
				t.Errorf("%s, writable git config %v: %q in\n%s", c.pol.Mode, c.pol.WritableGitConfig, u, got)
			}
		}
	}
}

// TestPromptNamesAllowedSockets: sandbox mode's text says host services
// under /run are out of reach; with --allow-socket one is not (a Docker
// socket, an ssh-agent's), and the prompt says so.
func TestPromptNamesAllowedSockets(t *testing.T) {
	got, err := PolicyPrompt(Policy{Mode: ModeSandbox, AllowSocket: []string{"/run/docker.sock"}}, "/w")
	if err != nil || !strings.Contains(got, "These host sockets are in reach: /run/docker.sock.") {
		t.Errorf("%q (%v); want the socket named", got, err)
	}
}

// TestPolicyPromptProjectDirs: with directories the user made writable
// (the project an agent is started in), the prompt does not tell the
// model to work in the workspace instead, as it did for every launch.
func TestPolicyPromptProjectDirs(t *testing.T) {
	const ws = "/home/alice/.omega/workspace"
	for _, m := range []Mode{ModeSandbox, ModeRX} {
		got, err := PolicyPrompt(Policy{Mode: m, AllowWrite: []string{"/home/alice/src"}}, ws)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, "Work inside your workspace: ") || !strings.Contains(got, "Work inside the directories the user gave you (/home/alice/src) or your workspace: "+ws+".") {
			t.Errorf("%s: %s", m, got)
		}
		if bare, _ := PolicyPrompt(Policy{Mode: m}, ws); !strings.Contains(bare, "Work inside your workspace: "+ws+".") {
			t.Errorf("%s without directories: %s", m, bare)
		}
	}
}
