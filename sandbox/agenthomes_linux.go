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
// its launch is told to), which needs its login: not hidden; nor one
// that is home, the root or above a writable root (CODEX_HOME=$HOME),
// where hiding it would hide those, nor one a mask cannot cover where the
// environment puts it (maskable: CODEX_HOME=/tmp/codex, the sandbox's own
// /tmp); wd is the program's working directory.
func agentHomes(pol profiles.Policy, wd string) []string {
	keep := append([]string{pol.Home}, pol.Writable...)
	wdReal := resolvedOr(wd)
	var out []string
	for i := range profiles.Programs {
		if !profiles.Programs[i].Grant {
			continue
		}
		for _, d := range profiles.Programs[i].StatePaths(pol.Home, os.Getenv) {
			granted := pol.WritableRootOf(d) != "" || pol.WritableRootOf(realPath(d)) != ""
			if granted || d == "/" || slices.ContainsFunc(keep, func(k string) bool { return profiles.Within(k, d) }) || !maskable(d, wdReal) {
				continue
			}
			out = append(out, d)
		}
	}
	return out
}
