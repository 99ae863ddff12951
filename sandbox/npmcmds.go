package sandbox

import (
	"slices"
	"strings"
	"unicode"
)

// npmCommands and npmAliases are npm 11's commands and the other words
// it takes for them (lib/utils/cmd-list.js), which npmDeref reads as npm
// does.
var npmCommands = strings.Fields(`access adduser approve-scripts audit bugs cache ci completion config
	dedupe deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund
	get help help-search init install install-ci-test install-scripts install-test link ll login logout
	ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root run
	sbom search set shrinkwrap stage star stars start stop team test token trust undeprecate uninstall
	unpublish unstar update version view whoami`)

var npmAliases = map[string]string{
	"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
	"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
	"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
	"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config",
	"s": "search", "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
	"run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec",
	"why": "explain", "la": "ll", "verison": "version", "ic": "ci", "innit": "init", "in": "install",
	"ins": "install", "inst": "install", "insta": "install", "instal": "install", "isnt": "install",
	"isnta": "install", "isntal": "install", "isntall": "install", "install-clean": "ci",
	"isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update",
	"udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
	"add-user": "adduser",
}

// npmBuildCommands are npm's commands that install or build packages,
// and so run node-gyp for a native addon.
var npmBuildCommands = []string{"install", "ci", "install-test", "install-ci-test", "rebuild", "update", "exec", "link"}

// npmDeref is the command npm runs for the word c, as npm's deref finds
// it, or "": camelCase made kebab-case (installTest), then a command, an
// alias, or a prefix of just one of them (reb, install-cl), an alias's
// command.
func npmDeref(c string) string {
	if strings.IndexFunc(c, unicode.IsUpper) >= 0 {
		var b strings.Builder
		for _, r := range c {
			if unicode.IsUpper(r) {
				b.WriteByte('-')
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
		c = b.String()
	}
	if c == "" || slices.Contains(npmCommands, c) {
		return c
	}
	if cmd, ok := npmAliases[c]; ok {
		return cmd
	}
	match := ""
	for _, name := range npmCommands {
		if strings.HasPrefix(name, c) {
			if match != "" {
				return ""
			}
			match = name
		}
	}
	for name, cmd := range npmAliases {
		if strings.HasPrefix(name, c) {
			if match != "" {
				return ""
			}
			match = cmd
		}
	}
	return match
}
