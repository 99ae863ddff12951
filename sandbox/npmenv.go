package sandbox

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// npmBuildCommands are npm's commands, with their aliases, that install
// or build packages, and so run node-gyp for a native addon.
var npmBuildCommands = []string{
	"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add",
	"ci", "clean-install", "ic", "install-clean", "isntall-clean", "install-test", "it",
	"install-ci-test", "cit", "clean-install-test", "sit", "rebuild", "rb", "update", "up", "upgrade", "udpate",
	"exec", "x", "link", "ln",
}

// npmEnv is getenv with npm's state behind profiles.NodeGypDevDir
// (nodeGypDevDir), and profiles.NpmNoBuild set when npm (at path, run
// with args) builds nothing: npm test is not told that node-gyp fetches
// headers into ~/.cache/node-gyp. npx installs what it runs (given one);
// unknown arguments (nil) count as a build.
func npmEnv(prog *profiles.Program, path string, args []string, getenv func(string) string) func(string) string {
	if prog.Name != "npm" {
		return getenv
	}
	noBuild := args != nil && !npmBuilds(path, args)
	devdir := nodeGypDevDir(getenv)
	return func(k string) string {
		switch {
		case k == profiles.NpmNoBuild && noBuild:
			return "1"
		case k == profiles.NodeGypDevDir:
			return devdir
		}
		return getenv(k)
	}
}

// nodeGypDevDir is where node-gyp keeps Node's headers, as node-gyp 5 and
// later find it, or "" for ~/.cache/node-gyp: its devdir option, which
// it takes from npm's config in the environment (a leading ~ is home),
// else env-paths' cache directory, XDG_CACHE_HOME/node-gyp.
func nodeGypDevDir(getenv func(string) string) string {
	for _, k := range []string{"npm_config_devdir", "NPM_CONFIG_DEVDIR"} {
		if v := getenv(k); v != "" {
			if rest, ok := strings.CutPrefix(v, "~"); ok {
				return getenv("HOME") + rest
			}
			return v
		}
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "node-gyp")
	}
	return ""
}

// npmBuilds tells whether npm's command (npmCommand) is one of
// npmBuildCommands.
func npmBuilds(path string, args []string) bool {
	if strings.HasPrefix(filepath.Base(path), "npx") { // but npx --version
		return slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	}
	return slices.Contains(npmBuildCommands, npmCommand(args))
}
