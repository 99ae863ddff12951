package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// hintSetenv returns the KEY=VALUE of each --setenv in a warning's hint.
func hintSetenv(t *testing.T, w string) []string {
	t.Helper()
	var out []string
	words := strings.Fields(w)
	for i, word := range words {
		if word == "--setenv" && i+1 < len(words) {
			kv := strings.TrimRight(words[i+1], ",);")
			if _, _, ok := strings.Cut(kv, "="); !ok {
				t.Fatalf("--setenv %q in %q: want KEY=VALUE", kv, w)
			}
			out = append(out, kv)
		}
	}
	return out
}

// TestStateHintSilences: on a fresh home each tool's warning gives flags
// that can be pasted (--setenv into the workspace, no --allow-write of a
// directory that does not exist), and following them silences it, as a
// warning on every launch must be.
func TestStateHintSilences(t *testing.T) {
	home := t.TempDir()
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
		Writable: []string{filepath.Join(home, ".omega"), filepath.Join(home, ".claude")}} // not /tmp: home is in it
	for _, prog := range profiles.Programs {
		if len(prog.Hints) == 0 {
			continue
		}
		t.Run(prog.Name, func(t *testing.T) {
			fresh := Process{ClearEnv: true}
			w := stateWarning(pol, &prog, "", nil, "", fresh.getenv)
			if w == "" {
				t.Fatal("no warning on a fresh home")
			}
			if strings.Contains(w, "--allow-write") {
				t.Errorf("hint offers --allow-write, which refuses a directory that does not exist yet: %q", w)
			}
			set := hintSetenv(t, w)
			if len(set) == 0 {
				t.Fatalf("no --setenv in %q", w)
			}
			for _, kv := range set {
				_, v, _ := strings.Cut(kv, "=")
				if flag, ok := strings.CutPrefix(v, "-D"); ok {
					_, v, _ = strings.Cut(flag, "=") // a JVM property's (MAVEN_OPTS)
				}
				if !profiles.Within(v, pol.Workspace()) {
					t.Errorf("--setenv %s: not in the workspace %s", kv, pol.Workspace())
				}
			}
			if w := stateWarning(pol, &prog, "", nil, "", Process{ClearEnv: true, SetEnv: set}.getenv); w != "" {
				t.Errorf("with %q the warning stays: %q", set, w)
			}
		})
	}
}

// TestStateWarningCases: what each tool's warning names, and what
// silences it.
func TestStateWarningCases(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, ".omega", "workspace")
	venv := filepath.Join(ws, "venv")
	if err := os.MkdirAll(filepath.Join(venv, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
		Writable: []string{filepath.Join(home, ".omega"), filepath.Join(home, ".claude")}} // not /tmp: home is in it
	cases := []struct {
		name, prog, path, wd string
		set, args            []string // args nil: unknown
		writableGit          bool
		mode                 profiles.Mode
		want, not            []string // in the warning, and not; want nil: no warning
	}{
		{name: "go with GOPATH and GOCACHE in the workspace", prog: "go",
			set: []string{"GOPATH=" + ws + "/go", "GOCACHE=" + ws + "/gocache"}},
		{name: "go: go env -w's config is not everyday state", prog: "go",
			want: []string{home + "/go", "GOCACHE="}, not: []string{".config/go"}},
		{name: "go: GOMODCACHE outside", prog: "go",
			set:  []string{"GOPATH=" + ws + "/go", "GOCACHE=" + ws + "/c", "GOMODCACHE=/srv/mod"},
			want: []string{"/srv/mod", "GOMODCACHE=" + ws}, not: []string{"GOPATH=", "GOCACHE="}},
		{name: "npm with its cache and node-gyp's in the workspace", prog: "npm", set: []string{"npm_config_cache=" + ws + "/npm", "npm_config_devdir=" + ws + "/gyp"}},
		{name: "npm: NPM_CONFIG_CACHE too", prog: "npm", set: []string{"NPM_CONFIG_CACHE=" + ws + "/npm", "NPM_CONFIG_DEVDIR=" + ws + "/gyp"}},
		{name: "npm install: node-gyp's headers", prog: "npm", args: []string{"install"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp", "npm_config_devdir=" + ws + "/.cache/node-gyp"}, not: []string{"npm_config_cache="}},
		{name: "npm --prefix DIR ci", prog: "npm", args: []string{"--prefix", "d", "ci"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npx installs what it runs", prog: "npm", path: "/usr/bin/npx", args: []string{"cowsay"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npx --version runs nothing", prog: "npm", path: "/usr/bin/npx", args: []string{"--version"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm test builds nothing", prog: "npm", args: []string{"test"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm alone builds nothing", prog: "npm", args: []string{}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "node-gyp given Node's headers writes nothing", prog: "npm", args: []string{"install"},
			set: []string{"npm_config_cache=" + ws + "/npm", "npm_config_nodedir=/usr"}},
		{name: "npm: node-gyp's devdir outside", prog: "npm", set: []string{"npm_config_cache=" + ws + "/npm", "npm_config_devdir=/srv/gyp"},
			want: []string{"/srv/gyp", "npm_config_devdir=" + ws}, not: []string{"npm_config_cache="}},
		{name: "npm: node-gyp's headers in XDG_CACHE_HOME outside", prog: "npm", set: []string{"npm_config_cache=" + ws + "/npm", "XDG_CACHE_HOME=/srv/xdg"},
			want: []string{"/srv/xdg/node-gyp,", "npm_config_devdir=" + ws}, not: []string{home + "/.cache/node-gyp", "npm_config_cache="}},
		{name: "npm: XDG_CACHE_HOME in the workspace", prog: "npm", set: []string{"npm_config_cache=" + ws + "/npm", "XDG_CACHE_HOME=" + ws + "/xdg"}},
		{name: "npm: node-gyp's devdir before XDG_CACHE_HOME", prog: "npm", set: []string{"npm_config_cache=" + ws + "/npm", "npm_config_devdir=" + ws + "/gyp", "XDG_CACHE_HOME=/srv/xdg"}},
		{name: "npm: node-gyp's devdir from ~", prog: "npm", set: []string{"HOME=" + ws, "npm_config_cache=" + ws + "/npm", "npm_config_devdir=~/gyp"}},
		// npm's deref: aliases, a prefix of one command, camelCase.
		{name: "npm reb, a prefix of rebuild", prog: "npm", args: []string{"reb"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npm installTest, camelCase", prog: "npm", args: []string{"installTest"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npm install-cl, a prefix of the alias install-clean", prog: "npm", args: []string{"install-cl"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npm u is update", prog: "npm", args: []string{"u"}, set: []string{"npm_config_cache=" + ws + "/npm"},
			want: []string{home + "/.cache/node-gyp"}},
		{name: "npm tes, a prefix of test", prog: "npm", args: []string{"tes"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm inst-, a prefix of nothing", prog: "npm", args: []string{"inst-"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm --devdir=DIR", prog: "npm", args: []string{"--devdir=/srv/gyp", "install"}, set: []string{"npm_config_cache=" + ws + "/npm", "npm_config_devdir=" + ws + "/gyp"},
			want: []string{"/srv/gyp,", "npm_config_devdir=" + ws}, not: []string{home + "/.cache/node-gyp"}},
		{name: "npm --devdir DIR is a flag and a command", prog: "npm", args: []string{"--devdir", "/srv/gyp", "install"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm: node-gyp's package config first", prog: "npm", args: []string{"--devdir=" + ws + "/a", "install"},
			set:  []string{"npm_config_cache=" + ws + "/npm", "npm_package_config_node_gyp_devdir=/srv/gyp"},
			want: []string{"/srv/gyp,"}, not: []string{home + "/.cache/node-gyp"}},
		{name: "npm: node-gyp's package config in the workspace", prog: "npm", args: []string{"install"},
			set: []string{"npm_config_cache=" + ws + "/npm", "npm_package_config_node_gyp_devdir=" + ws + "/gyp", "npm_config_devdir=/srv/gyp"}},
		{name: "npm --nodedir=DIR gives Node's headers", prog: "npm", args: []string{"install", "--nodedir=/usr"}, set: []string{"npm_config_cache=" + ws + "/npm"}},
		{name: "npm: Node's headers in node-gyp's package config", prog: "npm", args: []string{"install"},
			set: []string{"npm_config_cache=" + ws + "/npm", "npm_package_config_node_gyp_nodedir=/usr"}},
		{name: "npx: the command's --devdir= is not npm's", prog: "npm", path: "/usr/bin/npx", args: []string{"tool", "--devdir=" + ws + "/gyp"},
			set: []string{"npm_config_cache=" + ws + "/npm"}, want: []string{home + "/.cache/node-gyp"}},
		{name: "npm: configstore is old npm's", prog: "npm", want: []string{home + "/.npm"}, not: []string{"configstore"}},
		{name: "pip with cache and user base in the workspace", prog: "pip",
			set: []string{"PIP_CACHE_DIR=" + ws + "/pc", "PYTHONUSERBASE=" + ws + "/.local"}},
		{name: "pip run from a virtualenv", prog: "pip", path: filepath.Join(venv, "bin", "pip"),
			set: []string{"PIP_CACHE_DIR=" + ws + "/pc"}},
		{name: "pip run from a virtualenv is told only of its cache", prog: "pip", path: filepath.Join(venv, "bin", "pip"),
			want: []string{home + "/.cache/pip", "PIP_CACHE_DIR=" + ws}, not: []string{"virtualenv", "PYTHONUSERBASE", ".local"}},
		{name: "pip: a virtualenv outside gets the virtualenv fix", prog: "pip", set: []string{"PIP_CACHE_DIR=" + ws + "/pc", "VIRTUAL_ENV=/srv/venv"},
			want: []string{"/srv/venv", "python3 -m venv"}, not: []string{"PIP_CACHE_DIR="}},
		{name: "pip: a cache outside gets the cache fix", prog: "pip", path: filepath.Join(venv, "bin", "pip"), set: []string{"PIP_CACHE_DIR=/srv/pc"},
			want: []string{"/srv/pc", "PIP_CACHE_DIR=" + ws}, not: []string{"virtualenv"}},
		{name: "pip in an activated virtualenv", prog: "pip", set: []string{"PIP_CACHE_DIR=" + ws + "/pc", "VIRTUAL_ENV=" + venv}},
		{name: "pip: ~/.local without a virtualenv", prog: "pip", path: "/usr/bin/pip",
			set: []string{"PIP_CACHE_DIR=" + ws + "/pc"}, want: []string{home + "/.local/lib"}, not: []string{".config/pip"}},
		{name: "go: its build cache in XDG_CACHE_HOME outside", prog: "go", set: []string{"GOPATH=" + ws + "/go", "XDG_CACHE_HOME=/srv/xdg"},
			want: []string{"/srv/xdg/go-build,", "GOCACHE=" + ws}, not: []string{home + "/.cache", "GOPATH="}},
		{name: "go: XDG_CACHE_HOME in the workspace", prog: "go", set: []string{"GOPATH=" + ws + "/go", "XDG_CACHE_HOME=" + ws + "/xdg"}},
		{name: "go: GOCACHE before XDG_CACHE_HOME", prog: "go", set: []string{"GOPATH=" + ws + "/go", "GOCACHE=" + ws + "/c", "XDG_CACHE_HOME=/srv/xdg"}},
		{name: "go: a relative XDG_CACHE_HOME, which go refuses", prog: "go", set: []string{"GOPATH=" + ws + "/go", "XDG_CACHE_HOME=xdg"}},
		{name: "go: GOCACHE=off, which go refuses", prog: "go", set: []string{"GOPATH=" + ws + "/go", "GOCACHE=off"}},
		{name: "pip: its cache in XDG_CACHE_HOME outside", prog: "pip", set: []string{"PYTHONUSERBASE=" + ws + "/.local", "XDG_CACHE_HOME=/srv/xdg"},
			want: []string{"/srv/xdg/pip,", "PIP_CACHE_DIR=" + ws}, not: []string{home + "/.cache", "PYTHONUSERBASE="}},
		{name: "pip: XDG_CACHE_HOME in the workspace", prog: "pip", set: []string{"PYTHONUSERBASE=" + ws + "/.local", "XDG_CACHE_HOME=" + ws + "/xdg"}},
		{name: "pip: a blank XDG_CACHE_HOME is unset", prog: "pip", set: []string{"PYTHONUSERBASE=" + ws + "/.local", "XDG_CACHE_HOME= "},
			want: []string{home + "/.cache/pip"}},
		{name: "pip: a relative XDG_CACHE_HOME, from its working directory", prog: "pip", wd: ws, set: []string{"PYTHONUSERBASE=" + ws + "/.local", "XDG_CACHE_HOME=xdg"}},
		{name: "pip: a relative PIP_CACHE_DIR outside", prog: "pip", wd: "/srv", set: []string{"PYTHONUSERBASE=" + ws + "/.local", "PIP_CACHE_DIR=pc"},
			want: []string{"/srv/pc,", "PIP_CACHE_DIR=" + ws}, not: []string{home + "/.cache"}},
		{name: "pip: PIP_CACHE_DIR before XDG_CACHE_HOME", prog: "pip", set: []string{"PYTHONUSERBASE=" + ws + "/.local", "PIP_CACHE_DIR=" + ws + "/pc", "XDG_CACHE_HOME=/srv/xdg"}},
		{name: "pip --cache-dir before PIP_CACHE_DIR", prog: "pip", args: []string{"install", "--cache-dir", "/srv/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local", "PIP_CACHE_DIR=" + ws + "/pc"}, want: []string{"/srv/pc,"}},
		{name: "pip --cache-dir=DIR in the workspace", prog: "pip", args: []string{"install", "--cache-dir=" + ws + "/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local", "XDG_CACHE_HOME=/srv/xdg"}},
		{name: "pip --no-cache-dir", prog: "pip", args: []string{"install", "--no-cache-dir", "x"}, set: []string{"PYTHONUSERBASE=" + ws + "/.local"}},
		// optparse takes a prefix no other option starts with.
		{name: "pip --no-cache, shortened", prog: "pip", args: []string{"install", "--no-cache", "x"}, set: []string{"PYTHONUSERBASE=" + ws + "/.local"}},
		{name: "pip --no-ca before the command", prog: "pip", args: []string{"--no-ca", "install", "x"}, set: []string{"PYTHONUSERBASE=" + ws + "/.local"}},
		{name: "pip --cache-d=DIR, shortened", prog: "pip", args: []string{"install", "--cache-d=/srv/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local"}, want: []string{"/srv/pc,"}, not: []string{home + "/.cache"}},
		{name: "pip --ca DIR, shortened", prog: "pip", args: []string{"--ca", "/srv/pc", "install", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local"}, want: []string{"/srv/pc,"}, not: []string{home + "/.cache"}},
		{name: "pip --c is shared with --cert: not the cache", prog: "pip", args: []string{"install", "--c", ws + "/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local"}, want: []string{home + "/.cache/pip"}},
		{name: "pip: the last cache option wins", prog: "pip", args: []string{"install", "--no-cache-dir", "--cache-dir", "/srv/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local"}, want: []string{"/srv/pc,"}},
		{name: "pip --cache-dir wins over PIP_NO_CACHE_DIR", prog: "pip", args: []string{"install", "--cache-dir=/srv/pc", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local", "PIP_NO_CACHE_DIR=1"}, want: []string{"/srv/pc,"}},
		{name: "pip: PIP_NO_CACHE_DIR=false turns the cache off too", prog: "pip", args: []string{"install", "x"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local", "PIP_NO_CACHE_DIR=false"}},
		{name: "pip --cache-dir= turns the cache off", prog: "pip", args: []string{"install", "--cache-dir=", "x"}, set: []string{"PYTHONUSERBASE=" + ws + "/.local"}},
		{name: "pip: options after -- are not pip's", prog: "pip", args: []string{"install", "--", "--no-cache-dir"},
			set: []string{"PYTHONUSERBASE=" + ws + "/.local"}, want: []string{home + "/.cache/pip"}},
		{name: "git names --writable-git-config in sandbox mode", prog: "git",
			want: []string{"GIT_CONFIG_GLOBAL=" + ws + "/.gitconfig", "--writable-git-config"}},
		{name: "git with --writable-git-config given", prog: "git", writableGit: true,
			want: []string{"GIT_CONFIG_GLOBAL="}, not: []string{"--writable-git-config"}},
		{name: "git in rx, which keeps .git/config writable", prog: "git", mode: profiles.ModeRX,
			want: []string{"GIT_CONFIG_GLOBAL="}, not: []string{"--writable-git-config"}},
		{name: "git with GIT_CONFIG_GLOBAL in the workspace", prog: "git", set: []string{"GIT_CONFIG_GLOBAL=" + ws + "/gc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pol
			p.WritableGitConfig = c.writableGit
			if c.mode != "" {
				p.Mode = c.mode
			}
			w := stateWarning(p, profiles.ProgramFor(c.prog), c.path, c.args, c.wd, Process{ClearEnv: true, SetEnv: c.set}.getenv)
			checkWarning(t, w, c.want, c.not)
		})
	}
}

func TestHintForQuotes(t *testing.T) {
	prog := profiles.Program{Hints: []profiles.Hint{{Text: "--setenv A={ws}/a"}}}
	for ws, want := range map[string]string{
		"/h/.omega/workspace": "--setenv A=/h/.omega/workspace/a",
		"/h/my dir/ws":        "--setenv A='/h/my dir/ws'/a",
		"/h/it's":             `--setenv A='/h/it'\''s'/a`,
	} {
		if got := prog.HintFor(ws, "/h", nil, os.Getenv); got != want {
			t.Errorf("HintFor(%q) = %q, want %q", ws, got, want)
		}
	}
}

// TestStateWarningClaudeConfigDir: a CLAUDE_CONFIG_DIR of the user's
// outside the writable set (~/.claude-work, for a second account) is
// where Claude Code writes its sessions, settings and state: the launch
// named nothing, and every write there failed. Said, with the flag that
// fixes it; not for ~/.claude or a directory already writable.
func TestStateWarningClaudeConfigDir(t *testing.T) {
	home := t.TempDir()
	work := filepath.Join(home, ".claude-work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".claude"), filepath.Join(home, ".claude-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	claude := profiles.ProgramFor("claude")
	for _, c := range []struct {
		dir   string
		extra []string // writable besides the data dir and ~/.claude
		want  string   // "" for no warning
	}{
		{"", nil, ""},
		{filepath.Join(home, ".claude"), nil, ""},
		{work, []string{work}, ""},
		// A link to a writable directory: writes land there.
		{filepath.Join(home, ".claude-link"), nil, ""},
		{work, nil, "claude keeps state in " + work + ", outside the writable set: writes there will be refused; add --allow-write " + work},
		{filepath.Join(home, "new"), nil, "mkdir " + filepath.Join(home, "new") + ", then add --allow-write"},
	} {
		pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
			Writable: append([]string{filepath.Join(home, ".omega"), filepath.Join(home, ".claude")}, c.extra...)}
		var set []string
		if c.dir != "" {
			set = []string{"CLAUDE_CONFIG_DIR=" + c.dir}
		}
		w := stateWarning(pol, claude, "", nil, "", Process{ClearEnv: true, SetEnv: set}.getenv)
		if (w == "") != (c.want == "") || !strings.Contains(w, c.want) {
			t.Errorf("CLAUDE_CONFIG_DIR=%q, writable %v: %q, want %q", c.dir, pol.Writable, w, c.want)
		}
	}
}

// checkWarning checks a state warning w: there is one exactly when want
// is not nil, it holds each of want and none of not.
func checkWarning(t *testing.T, w string, want, not []string) {
	t.Helper()
	if (w != "") != (want != nil) {
		t.Fatalf("warning %q, want one: %v", w, want != nil)
	}
	for _, s := range want {
		if !strings.Contains(w, s) {
			t.Errorf("warning %q lacks %q", w, s)
		}
	}
	for _, s := range not {
		if strings.Contains(w, s) {
			t.Errorf("warning %q names %q", w, s)
		}
	}
}

// TestStateWarningAgentHome: Codex CLI and Gemini CLI keep their login,
// config and sessions in ~/.codex and ~/.gemini, outside the writable
// set: codex stopped with "Read-only file system (os error 30)" and
// gemini printed mkdir stack traces, and the launch named nothing. The
// warning names the directory and the grant that fixes it (made first:
// --allow-write wants it to exist); not once it is writable, or moved
// into the writable set.
func TestStateWarningAgentHome(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, ".omega", "workspace")
	codexDir, geminiDir := filepath.Join(home, ".codex"), filepath.Join(home, ".gemini")
	if err := os.Mkdir(geminiDir, 0o700); err != nil {
		t.Fatal(err)
	}
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
		Writable: []string{filepath.Join(home, ".omega"), filepath.Join(home, ".claude")}}
	for _, c := range []struct {
		prog     string
		set      []string
		writable string
		want     string // "" for no warning
	}{
		{prog: "codex", want: "codex keeps state in " + codexDir + ", outside the writable set: writes there will be refused; mkdir " + codexDir + ", then add --allow-write " + codexDir},
		{prog: "codex", writable: codexDir},
		{prog: "codex", set: []string{"CODEX_HOME=" + ws + "/codex"}},
		{prog: "gemini", want: "gemini keeps state in " + geminiDir + ", outside the writable set: writes there will be refused; add --allow-write " + geminiDir},
		{prog: "gemini", writable: geminiDir},
		{prog: "gemini", set: []string{"GEMINI_CLI_HOME=" + ws}},
	} {
		p := pol
		if c.writable != "" {
			p.Writable = append(slices.Clone(p.Writable), c.writable)
		}
		w := stateWarning(p, profiles.ProgramFor(c.prog), "", nil, "", Process{ClearEnv: true, SetEnv: c.set}.getenv)
		if w != c.want {
			t.Errorf("%s %q writable %q:\n got %q\nwant %q", c.prog, c.set, c.writable, w, c.want)
		}
	}
}
