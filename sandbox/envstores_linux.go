package sandbox

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/omega-run/omega-run/internal/accounts"
	"github.com/omega-run/omega-run/profiles"
)

// envHidden are the credential stores the caller's environment moved
// (profiles.EnvCredentialStores) that a mask can cover: directories and
// regular files, outside the sandbox's own /dev, /proc, /sys, /run and
// /tmp, where the host's are out of sight anyway and a mask would break
// what the program needs (NPM_CONFIG_USERCONFIG=/dev/null is a common
// way to skip ~/.npmrc) — but for one in, or holding, a working directory
// below the host's /tmp or /run, which the sandbox keeps in sight
// (keepWorkdir; TestWorkdirTmpStores).
func envHidden(pol profiles.Policy, wd string) []string {
	var out []string
	wdReal := resolvedOr(wd)
	for _, p := range envStores(pol.Home, wd, pol.Writable...) {
		if maskable(p, wdReal) {
			out = append(out, p)
		}
	}
	return out
}

// maskable tells whether a mask can cover p, a store the environment
// names (envHidden): a directory or regular file outside the sandbox's
// own /dev, /proc, /sys, /run and /tmp but for the kept working
// directory's (wdReal, resolved).
func maskable(p, wdReal string) bool {
	return maskableReal(resolvedOr(p), wdReal)
}

// maskableReal is maskable for a path already resolved (real).
func maskableReal(real, wdReal string) bool {
	if underRunOrTmp(real) && !inKeptWorkdir(real, wdReal) || profiles.Within(real, "/dev") ||
		profiles.Within(real, "/proc") || profiles.Within(real, "/sys") {
		return false
	}
	st, err := os.Stat(real)
	return err == nil && (st.IsDir() || st.Mode().IsRegular())
}

// accountHome is the caller's home as the user database has it, where
// $HOME (home) names another directory: CI runners and scripts set
// HOME=$PWD/.home, `env HOME=…` runs a tool with a scratch home, and the
// stores in the account's own home stayed readable to the program
// (TestAccountHomeStores). From the local account file
// (internal/accounts), read once per launch: the credential stores and
// the agents' homes both need it. "" where the two homes are one
// directory, or for a home of "/" (system accounts).
func accountHome(home string) string {
	h := accounts.Home(os.Getuid())
	if h == "" || h == "/" || !filepath.IsAbs(h) || sameDir(h, home) {
		return ""
	}
	return filepath.Clean(h)
}

// sameDir tells whether a and b are one directory (by device and inode:
// a home named through a symlink), or the same clean path.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	var sa, sb syscall.Stat_t
	return syscall.Stat(a, &sa) == nil && syscall.Stat(b, &sb) == nil && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// inKeptWorkdir tells a store below /tmp or /run (real) that lies in the
// working directory wd, or holds it, where that is below /tmp or /run too:
// kept in the sandbox (keepWorkdir), or started in, it is in sight.
func inKeptWorkdir(real, wd string) bool {
	below := wd != "/tmp" && wd != "/run" && underRunOrTmp(wd)
	return below && (profiles.Within(real, wd) || profiles.Within(wd, real))
}
