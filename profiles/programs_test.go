package profiles

import (
	"reflect"
	"strings"
	"testing"
)

func TestProgramFor(t *testing.T) {
	cases := map[string]string{
		"/usr/bin/git": "git", "claude": "claude", "/opt/x/claude.exe": "claude",
		"pip3": "pip", "pip3.11": "pip", "/usr/local/go/bin/go": "go", "npm": "npm",
		"npx": "npm", "/usr/bin/npx": "npm", // npm exec: the same cache
		"mvn": "mvn", "/usr/share/maven/bin/mvn": "mvn", "/p/mvnw": "mvnw",
		"cargo": "cargo", "/home/u/.cargo/bin/cargo": "cargo",
		"codex": "codex", "/opt/agents/bin/codex": "codex", "gemini": "gemini",
		"make": "", "/bin/sh": "", "gofmt": "",
	}
	for path, want := range cases {
		got := ""
		if p := ProgramFor(path); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("ProgramFor(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestStatePaths(t *testing.T) {
	for _, c := range []struct {
		prog string
		env  map[string]string
		want []string
	}{
		// go's build cache as read (GOCACHE, else XDG_CACHE_HOME/go-build).
		{"go", map[string]string{GoBuildCache: "/cache/go", "GOPATH": "relative-is-ignored"},
			[]string{"/h/go", "/cache/go"}},
		{"go", map[string]string{GoNoBuildCache: "1", GoBuildCache: "rel/go-build"}, []string{"/h/go"}},
		{"go", nil, []string{"/h/go", "/h/.cache/go-build"}},
		{"git", map[string]string{"GIT_CONFIG_GLOBAL": "/w/gitconfig"}, []string{"/w/gitconfig"}},
		{"claude", nil, []string{"/h/.claude", "/h/.claude.json"}},
		{"claude", map[string]string{"CLAUDE_CONFIG_DIR": "/h/.claude-work"}, []string{"/h/.claude-work"}},
		{"mvn", nil, []string{"/h/.m2/repository"}},
		// Maven's property, as read from MAVEN_OPTS, MAVEN_ARGS and settings.xml.
		{"mvn", map[string]string{"maven.repo.local": "/w/m2"}, []string{"/w/m2"}},
		// The wrapper's download of Maven, and the repository.
		{"mvnw", nil, []string{"/h/.m2/wrapper", "/h/.m2/repository"}},
		{"mvnw", map[string]string{MvnwDists: "/w/m2/wrapper/dists", MavenRepoLocal: "/w/m2/repository"}, []string{"/w/m2/wrapper/dists", "/w/m2/repository"}},
		{"mvnw", map[string]string{MvnwDistsByProperty: "/p/wrapper/dists"}, []string{"/h/.m2/repository", "/p/wrapper/dists"}},
		{"cargo", nil, []string{"/h/.cargo/registry", "/h/.cargo/git"}},
		{"cargo", map[string]string{"CARGO_HOME": "/w/cargo"}, []string{"/w/cargo"}},
		{"codex", nil, []string{"/h/.codex"}},
		{"codex", map[string]string{"CODEX_HOME": "/w/codex"}, []string{"/w/codex"}},
		{"gemini", nil, []string{"/h/.gemini"}},
		// GEMINI_CLI_HOME is a home, with .gemini inside.
		{"gemini", map[string]string{"GEMINI_CLI_HOME": "/w/g"}, []string{"/w/g/.gemini"}},
		{"npm", map[string]string{"NPM_CONFIG_PREFIX": "/w/npm"}, []string{"/h/.npm", "/h/.cache/node-gyp", "/w/npm"}},
		// node-gyp's headers: moved, given (nodedir), no build.
		{"npm", map[string]string{NodeGypDevDir: "/w/gyp"}, []string{"/h/.npm", "/w/gyp"}},
		{"npm", map[string]string{"npm_config_nodedir": "/usr", NodeGypDevDir: "/w/gyp"}, []string{"/h/.npm"}},
		{"npm", map[string]string{NpmNoBuild: "1"}, []string{"/h/.npm"}},
		{"pip", map[string]string{"VIRTUAL_ENV": "/w/venv"}, []string{"/h/.cache/pip", "/w/venv"}},
		// No cache at all: neither ~/.cache/pip nor where PIP_CACHE_DIR points.
		{"pip", map[string]string{"PIP_NO_CACHE_DIR": "1", PipCache: "/c/pip"}, []string{"/h/.local/lib", "/h/.local/bin"}},
		{"pip", map[string]string{PipCache: "/x/pip"}, []string{"/h/.local/lib", "/h/.local/bin", "/x/pip"}},
	} {
		got := ProgramFor(c.prog).StatePaths("/h", func(k string) string { return c.env[k] })
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: got %v, want %v", c.prog, c.env, got, c.want)
		}
	}
}

// TestGoHintLastingFix: go's hint names the lasting fix, go env -w, which
// omega-run reads as go does, besides the flags to paste on every launch.
func TestGoHintLastingFix(t *testing.T) {
	prog := ProgramFor("/usr/local/go/bin/go")
	hint := prog.HintFor("/h/.omega/workspace", "/h", []string{"/h/go"}, func(string) string { return "" })
	if !strings.Contains(hint, "--setenv GOPATH=") || !strings.HasSuffix(hint, "go env -w (run outside omega-run), which go and omega-run both read") {
		t.Errorf("go's hint: %q", hint)
	}
}

// TestWritesState: a command that only prints and exits (pip --version,
// pip help) writes no state, so its state warning is not given; every
// other command, and every other tool's, may write it.
func TestWritesState(t *testing.T) {
	for _, c := range []struct {
		prog string
		args []string
		want bool
	}{
		{"pip", []string{"--version"}, false},
		{"pip", []string{"-V"}, false},
		{"pip", []string{"help"}, false},
		{"pip", []string{"help", "install"}, false},
		{"pip", []string{"--help"}, false},
		{"pip", []string{"-h"}, false},
		{"pip", nil, false}, // pip alone prints its help
		{"pip", []string{"install", "requests"}, true},
		{"pip", []string{"list"}, true}, // its version check writes the cache
		{"pip", []string{"install", "--help"}, true},
		{"pip", []string{"-q", "--version"}, true}, // narrow: the first argument only
		{"mvn", []string{"-v"}, false},
		{"mvn", []string{"--version"}, false},
		{"mvn", []string{"-h"}, false},
		{"mvn", nil, false}, // "No goals have been specified"
		{"mvn", []string{"-q", "validate"}, true},
		{"claude", nil, true},
		{"go", []string{"help"}, true},
		{"git", []string{"--version"}, false},
		{"git", []string{"version"}, false},
		{"git", []string{"help", "config"}, false},
		{"git", nil, false}, // git alone prints its usage
		{"git", []string{"config", "--global", "user.name", "x"}, true},
		{"git", []string{"-C", "/p", "--version"}, true}, // the first argument only
	} {
		if got := ProgramFor(c.prog).WritesState(c.args); got != c.want {
			t.Errorf("%s %q: WritesState = %v, want %v", c.prog, c.args, got, c.want)
		}
	}
}
