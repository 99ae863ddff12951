package sandbox

import (
	"os"
	"slices"

	"github.com/omega-run/omega-run/profiles"
)

// agentHomes are the directories of the coding agents whose state is
// their login, config and sessions (profiles.Program.Grant: ~/.codex and
// ~/.gemini, or where CODEX_HOME and GEMINI_CLI_HOME put them), which
// sandbox mode hides as it hides the credential stores: ~/.codex/auth.json
// holds an OpenAI API key or ChatGPT tokens, ~/.gemini/oauth_creds.json a
// Google refresh token, and a program that is not that agent (claude, an
// npm install script) has no use for them. One this launch grants, or
// holds a grant in, is the agent's own launch (--allow-write ~/.codex, as
// its launch is told to), which needs its login: not hidden (a writable
// root above it, --allow-write ~, is no grant, as it is none of ~/.ssh);
// nor one
// that is home, the root or above a writable root (CODEX_HOME=$HOME),
// where hiding it would hide those, nor one a mask cannot cover where the
// environment puts it (maskable: CODEX_HOME=/tmp/codex, the sandbox's own
// /tmp); wd is the program's working directory. Where the environment
// moves one (CODEX_HOME) or names another home ($HOME), the default
// places, and the account's home's (acct, accountHome), are hidden too:
// a login left there from before is as much the agent's.
func agentHomes(pol profiles.Policy, wd, acct string) []string {
	keep := append([]string{pol.Home}, pol.Writable...)
	wdReal := resolvedOr(wd)
	homes := []string{pol.Home}
	if acct != "" {
		homes = append(homes, acct)
	}
	noEnv := func(string) string { return "" }
	var out []string
	for i := range profiles.Programs {
		if !profiles.Programs[i].Grant {
			continue
		}
		paths := profiles.Programs[i].StatePaths(pol.Home, os.Getenv)
		for _, h := range homes {
			paths = append(paths, profiles.Programs[i].StatePaths(h, noEnv)...)
		}
		for _, d := range uniq(paths) {
			// A grant is a writable root at d or in it: one above
			// (--allow-write ~) grants no more the login than ~/.ssh.
			real := realPath(d)
			inside := func(k string) bool { return profiles.Within(k, d) || profiles.Within(k, real) }
			if d == "/" || slices.ContainsFunc(keep, inside) || !maskableReal(real, wdReal) {
				continue
			}
			out = append(out, d)
		}
	}
	return out
}
