package profiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Program describes where a well-known tool keeps its state, so that
// omega-run can name the writes the policy will refuse, and, for Claude
// Code, keep its state file in sync.
type Program struct {
	Name string
	// Also are other commands that are this tool, with its state (npx
	// is npm exec).
	Also []string
	// State lists, relative to home, where the tool writes outside its
	// project.
	State []string
	// EnvDirs are environment variables that move state elsewhere: set to
	// an absolute path, the path counts as state instead of the State
	// entries the variable replaces.
	EnvDirs []EnvDir
	// SetEnv is added to the environment, values relative to home.
	SetEnv map[string]string
	// Sync pairs a state file in home with its working copy inside the
	// writable set (see StateSync).
	Sync []StateSync
	// Hints say how to fix refused writes for this tool, as flags a user
	// can paste; {ws} stands for the workspace (HintFor).
	Hints []Hint
	// Off are environment variables that, set to any value, turn the
	// state they name off (PIP_NO_CACHE_DIR): neither it nor a variable
	// that moves it counts.
	Off []EnvDir
	// ByHand: the state is written only by commands a person types (git
	// config --global), not in everyday use, so its warning is for a
	// terminal, not for every scripted launch (explain lists it always).
	ByHand bool
	// HomeEnv is a variable that, set to an absolute path, stands for
	// home: the State entries lie below it (GEMINI_CLI_HOME).
	HomeEnv string
	// Grant: the state is the tool's login, config and sessions, which
	// it needs from one launch to the next, so the fix is to grant the
	// directory (--allow-write), not to move it and lose the login.
	Grant bool
	// Quiet are first arguments with which the tool prints and exits,
	// writing no state ("" for none at all), so that no warning about
	// where it writes state comes with them (WritesState).
	Quiet []string
}

// Hint is one fix. For names the State entries and EnvDirs variables
// whose refused paths it fixes (none: every one), so that the warning
// gives only the fixes that apply: pip run from a virtualenv is not told
// to install into one.
type Hint struct {
	For  []string
	Text string
}

// EnvDir is a variable that moves some of a tool's State elsewhere.
type EnvDir struct {
	Name     string
	Replaces []string // State entries it moves
}

// StateSync keeps a file that the tool writes next to others in home (so
// it needs home writable: tmp file, lock, rename) in a working copy inside
// a writable directory. omega-run copies Home → Work before the program
// runs and Work → Home after it, from outside the sandbox, only when Home
// did not change in between.
type StateSync struct {
	Home string // relative to home, e.g. ".claude.json"
	Work string // relative to home, e.g. ".claude/.claude.json"
}

// Programs are the tools omega-run knows. Claude Code keeps ~/.claude.json
// beside ~/.claude and writes it with a temporary file, a lock directory
// and a rename in home; with CLAUDE_CONFIG_DIR=~/.claude it keeps the same
// file as ~/.claude/.claude.json instead, which the sandbox may write.
var Programs = []Program{
	{
		Name: "claude", State: []string{".claude", ".claude.json"},
		// The user's own config dir (a second account's) holds both.
		EnvDirs: []EnvDir{{"CLAUDE_CONFIG_DIR", []string{".claude", ".claude.json"}}},
		SetEnv:  map[string]string{"CLAUDE_CONFIG_DIR": ClaudeDirName},
		Sync:    []StateSync{{Home: ClaudeStateName, Work: ".claude/.claude.json"}},
	},
	// Coding agents other than Claude Code: their own directory holds the
	// login, config and sessions (README: Claude Code and other tools).
	{Name: "codex", State: []string{".codex"}, EnvDirs: []EnvDir{{"CODEX_HOME", []string{".codex"}}}, Grant: true},
	{Name: "gemini", State: []string{".gemini"}, HomeEnv: "GEMINI_CLI_HOME", Grant: true},
	// State lists what each tool writes in everyday use, not what only
	// an explicit configuration command writes (go env -w's ~/.config/go,
	// pip config's ~/.config/pip): a warning on every launch must be one
	// that following the hint silences. npm since 7 keeps its update check
	// in its cache, not ~/.config/configstore. Go's telemetry counters in
	// ~/.config/go fail silently. Hints name {ws}, the workspace.
	{Name: "git", State: []string{".gitconfig", ".config/git"}, EnvDirs: []EnvDir{{"GIT_CONFIG_GLOBAL", []string{".gitconfig", ".config/git"}}},
		Hints: []Hint{{Text: "git config --global rewrites ~/.gitconfig through a lock file in ~: add --setenv GIT_CONFIG_GLOBAL={ws}/.gitconfig (copy ~/.gitconfig there to keep your settings)"}},
		// git alone prints its usage; git help COMMAND shows a page.
		Quiet:  []string{"", "--version", "-v", "version", "help", "--help", "-h"},
		ByHand: true},
	// node-gyp, which npm runs to build a native addon, fetches Node's
	// headers into its devdir (NodeGypDevDir) unless given them (nodedir);
	// only commands that install or build run it (NpmNoBuild).
	{Name: "npm", Also: []string{"npx"}, State: []string{".npm", ".cache/node-gyp"},
		EnvDirs: []EnvDir{{"npm_config_cache", []string{".npm"}}, {"NPM_CONFIG_CACHE", []string{".npm"}}, {"NPM_CONFIG_PREFIX", nil}, {"npm_config_prefix", nil},
			{NodeGypDevDir, []string{".cache/node-gyp"}}},
		Off: []EnvDir{{"npm_config_nodedir", []string{".cache/node-gyp"}}, {"NPM_CONFIG_NODEDIR", []string{".cache/node-gyp"}}, {NpmNoBuild, []string{".cache/node-gyp"}}},
		Hints: []Hint{{For: []string{".npm", "npm_config_cache", "NPM_CONFIG_CACHE", "NPM_CONFIG_PREFIX", "npm_config_prefix"}, Text: "add --setenv npm_config_cache={ws}/.npm (npm creates it)"},
			{For: []string{".cache/node-gyp", NodeGypDevDir},
				Text: "add --setenv npm_config_devdir={ws}/.cache/node-gyp (node-gyp fetches Node's headers there to build a native addon, unless npm_package_config_node_gyp_devdir or npm's --devdir=DIR, which it takes first, says elsewhere; setting npm_config_nodedir to a Node source or install tree with them does without)"}}},
	{Name: "pip", State: []string{".cache/pip", ".local/lib", ".local/bin"},
		EnvDirs: []EnvDir{{PipCache, []string{".cache/pip"}}, {"PYTHONUSERBASE", []string{".local/lib", ".local/bin"}}, {"VIRTUAL_ENV", []string{".local/lib", ".local/bin"}}},
		Off:     []EnvDir{{"PIP_NO_CACHE_DIR", []string{".cache/pip"}}},
		// Not pip list or pip show: their check for a newer pip writes
		// the cache. pip alone prints its help.
		Quiet: []string{"", "--version", "-V", "help", "--help", "-h"},
		Hints: []Hint{
			{For: []string{".cache/pip", PipCache}, Text: "add --setenv PIP_CACHE_DIR={ws}/.cache/pip (pip creates it)"},
			{For: []string{".local/lib", ".local/bin", "PYTHONUSERBASE", "VIRTUAL_ENV"},
				Text: "install into a virtualenv in the workspace (python3 -m venv {ws}/venv, then run its bin/pip) or add --setenv PYTHONUSERBASE={ws}/.local (pip creates it)"}}},
	{Name: "go", State: []string{"go", ".cache/go-build"}, EnvDirs: []EnvDir{{"GOPATH", []string{"go"}}, {GoBuildCache, []string{".cache/go-build"}}, {"GOMODCACHE", nil}},
		Off: []EnvDir{{GoNoBuildCache, []string{".cache/go-build"}}},
		Hints: []Hint{{For: []string{"go", "GOPATH"}, Text: "add --setenv GOPATH={ws}/go (go creates it)"},
			{For: []string{"GOMODCACHE"}, Text: "add --setenv GOMODCACHE={ws}/go/pkg/mod (go creates it)"},
			{For: []string{".cache/go-build", GoBuildCache}, Text: "add --setenv GOCACHE={ws}/.cache/go-build (go creates it)"},
			// What omega-run reads from go's own settings counts too
			// (sandbox/goenv.go): set once, it silences this for good.
			{Text: "or set them once for every launch with go env -w (run outside omega-run), which go and omega-run both read"}}},
	// cargo fetches every dependency, crates.io's and git ones, into
	// CARGO_HOME's registry and git directories. Granting those would let
	// the program change sources that builds outside compile and run
	// (build.rs), so the hint moves CARGO_HOME, whose config.toml the
	// user may want to copy; its credentials stay hidden (hide.go).
	{Name: "cargo", State: []string{".cargo/registry", ".cargo/git"}, EnvDirs: []EnvDir{{"CARGO_HOME", []string{".cargo/registry", ".cargo/git"}}},
		Hints: []Hint{{Text: "add --setenv CARGO_HOME={ws}/.cargo (cargo creates it; copy ~/.cargo/config.toml there to keep your settings)"}}},
	// Maven creates ~/.m2/repository before anything else and stops
	// without it. Its location is a property, not a variable:
	// MavenRepoLocal is it as the sandbox package reads it from
	// MAVEN_ARGS, MAVEN_OPTS and ~/.m2/settings.xml.
	// mvn -v, -h or alone (no goals) creates nothing.
	{Name: "mvn", State: []string{".m2/repository"}, EnvDirs: []EnvDir{{MavenRepoLocal, []string{".m2/repository"}}},
		Quiet: []string{"", "-v", "--version", "-h", "--help"},
		Hints: []Hint{mavenRepoHint}},
	// The Maven wrapper (a project's mvnw) first downloads Maven into
	// ~/.m2/wrapper (MAVEN_USER_HOME/wrapper; MvnwDists), mvnw -v too,
	// then runs it, which writes the local repository as mvn does.
	{Name: "mvnw", State: []string{".m2/wrapper", ".m2/repository"},
		EnvDirs: []EnvDir{{MvnwDists, []string{".m2/wrapper"}}, {MvnwDistsByProperty, []string{".m2/wrapper"}}, {MvnwZips, nil}, {MvnwZipsByProperty, nil},
			{MavenRepoLocal, []string{".m2/repository"}}},
		Hints: []Hint{{For: []string{".m2/wrapper", MvnwDists, MvnwZips}, Text: "add --setenv MAVEN_USER_HOME={ws}/.m2 (the wrapper downloads Maven into its wrapper directory)"},
			{For: []string{MvnwDistsByProperty, MvnwZipsByProperty}, Text: "point the wrapper's -Dmaven.user.home, which wins over MAVEN_USER_HOME, into the workspace ({ws}/.m2)"},
			mavenRepoHint}},
}

// mavenRepoHint moves Maven's local repository, for mvn and mvnw.
var mavenRepoHint = Hint{For: []string{".m2/repository", MavenRepoLocal},
	Text: "add --setenv MAVEN_OPTS=-Dmaven.repo.local={ws}/.m2/repository (Maven creates it; put your own MAVEN_OPTS in the value too)"}

// NpmNoBuild, set among a program's variables, says that the npm command
// run builds no native addon, so node-gyp writes nothing: a name no
// variable has, set by the sandbox package from npm's arguments.
const NpmNoBuild = "npm:no-build"

// NodeGypDevDir names node-gyp's devdir among npm's variables, as the
// sandbox package reads it where node-gyp does (its package config's
// variable, npm's --devdir=, npm_config_devdir, else
// XDG_CACHE_HOME/node-gyp): a name no variable has.
const NodeGypDevDir = "node-gyp:devdir"

// GoBuildCache and PipCache name go's build cache and pip's cache among
// their variables, as the sandbox package reads them where the tool finds
// them (GOCACHE, else XDG_CACHE_HOME/go-build; --cache-dir, PIP_CACHE_DIR,
// pip.conf's cache-dir, else XDG_CACHE_HOME/pip). GoNoBuildCache, set,
// says go has no cache it can use (GOCACHE or XDG_CACHE_HOME relative:
// go refuses to build). Names no variable has.
const (
	GoBuildCache   = "go:build-cache"
	GoNoBuildCache = "go:no-build-cache"
	PipCache       = "pip:cache"
)

// MvnwDists and MvnwZips name where the Maven wrapper unpacks Maven and
// keeps its download among its variables, as the sandbox package reads
// them (MAVEN_USER_HOME, the project's wrapper properties); the
// ByProperty names, when the maven.user.home property put them there.
// Names no variable has.
const (
	MvnwDists           = "mvnw:dists"
	MvnwDistsByProperty = "mvnw:dists-by-property"
	MvnwZips            = "mvnw:zips"
	MvnwZipsByProperty  = "mvnw:zips-by-property"
)

// MavenRepoLocal names Maven's local repository among a program's
// variables: Maven's own property name, which no variable has.
const MavenRepoLocal = "maven.repo.local"

// ClaudeStateName is Claude Code's state file in home, which names the
// MCP servers it starts and the projects it trusts.
const ClaudeStateName = ".claude.json"

// ProgramFor returns the profile for a program path ("pip3" is pip,
// "claude.exe" is claude, "npx" is npm), or nil.
func ProgramFor(path string) *Program {
	base := strings.TrimSuffix(filepath.Base(path), ".exe")
	base = strings.TrimRight(base, "0123456789.")
	for i := range Programs {
		if Programs[i].Name == base || slices.Contains(Programs[i].Also, base) {
			return &Programs[i]
		}
	}
	return nil
}

// WritesState tells whether the tool, run with args (those after its
// name), may write its state: every command but those Quiet names, by the
// first argument alone (pip -q --version is not told apart).
func (p *Program) WritesState(args []string) bool {
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	return !slices.Contains(p.Quiet, first)
}

// StatePaths returns the absolute state paths of p: State under home,
// except what a set EnvDirs variable moved, then those variables' values.
func (p *Program) StatePaths(home string, getenv func(string) string) []string {
	if v := getenv(p.HomeEnv); p.HomeEnv != "" && filepath.IsAbs(v) {
		home = v
	}
	moved, off := map[string]bool{}, map[string]bool{}
	for _, e := range p.Off {
		if getenv(e.Name) != "" {
			for _, r := range e.Replaces {
				moved[r], off[r] = true, true
			}
		}
	}
	var set []string
	for _, e := range p.EnvDirs {
		if len(e.Replaces) > 0 && !slices.ContainsFunc(e.Replaces, func(r string) bool { return !off[r] }) {
			continue // what it moves is off
		}
		if v := getenv(e.Name); v != "" && filepath.IsAbs(v) {
			set = append(set, v)
			for _, r := range e.Replaces {
				moved[r] = true
			}
		}
	}
	var out []string
	for _, rel := range p.State {
		if !moved[rel] {
			out = append(out, filepath.Join(home, rel))
		}
	}
	return append(out, set...)
}

// HintFor is p's hints that fix one of the refused state paths, joined,
// with the workspace's path in them, quoted for a shell when it needs to
// be. getenv is the program's environment, which may have moved them.
func (p *Program) HintFor(workspace, home string, refused []string, getenv func(string) string) string {
	var texts []string
	for _, h := range p.Hints {
		if h.fixes(home, refused, getenv) {
			texts = append(texts, strings.ReplaceAll(h.Text, "{ws}", ShellWord(workspace)))
		}
	}
	return strings.Join(texts, "; ")
}

// fixes reports whether h applies to one of the refused paths: one of
// its State entries under home, or where one of its variables points.
func (h Hint) fixes(home string, refused []string, getenv func(string) string) bool {
	if len(h.For) == 0 {
		return true
	}
	for _, f := range h.For {
		for _, r := range refused {
			if v := getenv(f); r == filepath.Join(home, f) || v != "" && v == r {
				return true
			}
		}
	}
	return false
}

// ShellWord quotes s for a POSIX shell unless it is plain.
func ShellWord(s string) string {
	plain := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == '+' || r == '@' || r == ':' ||
			r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// VenvOf returns the Python virtualenv a program in its bin directory
// belongs to (pyvenv.cfg beside that directory), or "": pip run from a
// virtualenv installs there, as when the virtualenv is activated.
func VenvOf(path string) string {
	dir := filepath.Dir(filepath.Dir(path))
	if _, err := os.Stat(filepath.Join(dir, "pyvenv.cfg")); err != nil || !filepath.IsAbs(path) {
		return ""
	}
	return dir
}
