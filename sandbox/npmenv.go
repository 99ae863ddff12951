package sandbox

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// npmEnv is getenv with npm's state behind profiles.NodeGypDevDir
// (nodeGypOption's devdir), npm_config_nodedir set when node-gyp is
// given Node's headers (nodedir) any way it takes them, and
// profiles.NpmNoBuild set when npm (at path, run with args) builds
// nothing: npm test is not told that node-gyp fetches headers into
// ~/.cache/node-gyp. npx installs what it runs (given one); unknown
// arguments (nil) count as a build.
func npmEnv(prog *profiles.Program, path string, args []string, getenv func(string) string) func(string) string {
	if prog.Name != "npm" {
		return getenv
	}
	noBuild := args != nil && !npmBuilds(path, args)
	own := args // npx's own options come before what it runs
	if strings.HasPrefix(filepath.Base(path), "npx") {
		if i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") }); i >= 0 {
			own = args[:i]
		}
	}
	devdir, nodedir := nodeGypOption(own, "devdir", getenv), nodeGypOption(own, "nodedir", getenv)
	if rest, ok := strings.CutPrefix(devdir, "~"); ok {
		devdir = getenv("HOME") + rest
	}
	if x := getenv("XDG_CACHE_HOME"); devdir == "" && x != "" {
		devdir = filepath.Join(x, "node-gyp")
	}
	return func(k string) string {
		switch {
		case k == profiles.NpmNoBuild && noBuild:
			return "1"
		case k == profiles.NodeGypDevDir:
			return devdir
		case k == "npm_config_nodedir" && nodedir != "":
			return nodedir
		}
		return getenv(k)
	}
}

// nodeGypOption is node-gyp's option name (devdir, nodedir) as node-gyp
// 5 and later find it when npm runs it, or "": the package config's
// variable, which node-gyp 11.4 and later take first (its README's way to
// set an option since npm 11 warns of npm_config_ ones); then npm's
// --name=VALUE among its args, which npm passes on as npm_config_name
// (not --name VALUE: npm takes an option it does not know for a flag);
// then npm_config_name, which node-gyp reads in any case.
func nodeGypOption(args []string, name string, getenv func(string) string) string {
	for _, k := range []string{"npm_package_config_node_gyp_" + name, "NPM_PACKAGE_CONFIG_NODE_GYP_" + strings.ToUpper(name)} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	v := ""
	for _, a := range args {
		if a == "--" {
			break
		}
		if val, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			v = val
		}
	}
	if v != "" {
		return v
	}
	for _, k := range []string{"npm_config_" + name, "NPM_CONFIG_" + strings.ToUpper(name)} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// npmBuilds tells whether npm's command (npmCommand, npmDeref) is one
// of npmBuildCommands.
func npmBuilds(path string, args []string) bool {
	if strings.HasPrefix(filepath.Base(path), "npx") { // but npx --version
		return slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	}
	return slices.Contains(npmBuildCommands, npmDeref(npmCommand(args)))
}
