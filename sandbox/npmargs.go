package sandbox

import (
	"slices"
	"strings"
)

// npmValueOptions are npm's options that take a value: npm 11's config
// definitions whose type has no Boolean. npm's parser (nopt) gives each
// the next word; any other option is a flag, as is one npm does not know.
var npmValueOptions = strings.Fields(`_auth access allow-directory allow-file allow-git allow-remote
	allow-scripts also audit-level auth-type before ca cache cache-max cache-min cafile call cert cidr
	cpu depth diff diff-dst-prefix diff-src-prefix diff-unified editor expect-result-count expires
	fetch-retries fetch-retry-factor fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout git
	globalconfig heading https-proxy include init-author-email init-author-name init-author-url
	init-license init-module init-type init-version init.author.email init.author.name init.author.url
	init.license init.module init.version install-strategy key libc local-address location
	lockfile-version loglevel logs-dir logs-max name maxsockets message min-release-age
	min-release-age-exclude node-gyp node-options noproxy omit only orgs os otp package
	pack-destination packages prefix preid provenance-file proxy registry replace-registry-host
	save-prefix sbom-format sbom-type scope scopes packages-and-scopes-permission orgs-permission
	password token-description script-shell searchexclude searchlimit searchopts searchstaleness
	shell tag tag-version-prefix umask user-agent userconfig viewer which workspace`)

// npmShorthands are npm's short options (-C is --prefix), those that
// stand for an option taking a value with its name, the others with "".
// Single letters may be run together (-gC DIR).
var npmShorthands = map[string]string{
	"C": "prefix", "L": "location", "c": "call", "m": "message", "w": "workspace", "reg": "registry", "enjoy-by": "before",
	"d": "", "dd": "", "ddd": "", "q": "", "s": "", "a": "", "f": "", "g": "", "l": "", "p": "", "n": "", "y": "", "v": "",
	"S": "", "B": "", "D": "", "E": "", "O": "", "P": "", "?": "", "H": "", "h": "", "ws": "", "iwr": "",
}

// npmCommand is the command among npm's arguments as npm's parser finds
// it: the first word that is neither an option nor an option's value,
// or "". Not read: options shortened to a prefix of their name.
func npmCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.Trim(a, "-") == "" && len(a) > 1 {
			if i+1 < len(args) {
				return args[i+1] // the rest are positional
			}
			return ""
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return a
		}
		if strings.Contains(a, "=") {
			continue // its value is in it
		}
		if npmTakesValue(a, args[i+1:]) {
			i++
		}
	}
	return ""
}

// npmTakesValue tells whether npm's option opt takes next[0] as its value.
func npmTakesValue(opt string, next []string) bool {
	if len(next) == 0 {
		return false
	}
	la := next[0]
	name := strings.TrimLeft(opt, "-")
	if !slices.Contains(npmValueOptions, name) {
		if long, ok := npmShorthands[name]; ok {
			name = long
		} else if long, ok := npmRunTogether(opt); ok {
			name = long
		}
	}
	switch {
	case la == "true" || la == "false":
		return true // a flag's value too
	case slices.Contains(npmValueOptions, name):
		// A word with a dash before it is the next option, as nopt
		// takes it for String-typed ones ("-" alone is a value).
		return !strings.HasPrefix(la, "-") || la == "-"
	case name == "browser": // [null, Boolean, String]
		return !strings.HasPrefix(la, "-")
	case name == "color": // ["always", Boolean]
		return la == "always"
	}
	return false
}

// npmRunTogether reads single-letter shorthands run together (-gC): the
// option the last letter stands for, when every letter is a shorthand.
func npmRunTogether(opt string) (string, bool) {
	if strings.HasPrefix(opt, "--") || len(opt) < 3 {
		return "", false
	}
	long := ""
	for _, r := range opt[1:] {
		l, ok := npmShorthands[string(r)]
		if !ok {
			return "", false
		}
		long = l
	}
	return long, true
}
