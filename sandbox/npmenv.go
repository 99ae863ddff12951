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

// npmEnv is getenv with profiles.NpmNoBuild set when npm (at path, run
// with args) builds nothing: npm test is not told that node-gyp fetches
// headers into ~/.cache/node-gyp. npx installs what it runs (given one);
// unknown arguments (nil) count as a build.
func npmEnv(prog *profiles.Program, path string, args []string, getenv func(string) string) func(string) string {
	if prog.Name != "npm" || args == nil || npmBuilds(path, args) {
		return getenv
	}
	return func(k string) string {
		if k == profiles.NpmNoBuild {
			return "1"
		}
		return getenv(k)
	}
}

// npmBuilds tells whether npm's command is one of npmBuildCommands: the
// first word that is no option, or the second, as the first may be an
// option's value (npm --prefix DIR install).
func npmBuilds(path string, args []string) bool {
	if strings.HasPrefix(filepath.Base(path), "npx") { // but npx --version
		return slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	}
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if slices.Contains(npmBuildCommands, a) {
			return true
		}
		if n++; n == 2 {
			break
		}
	}
	return false
}
