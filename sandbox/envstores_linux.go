package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/profiles"
)

// envHidden are the credential stores the caller's environment moved
// (profiles.EnvCredentialStores) that a mask can cover: directories and
// regular files, outside the sandbox's own /dev, /proc, /sys, /run and
// /tmp, where the host's are out of sight anyway and a mask would break
// what the program needs (NPM_CONFIG_USERCONFIG=/dev/null is a common
// way to skip ~/.npmrc).
func envHidden(pol profiles.Policy, wd string) []string {
	var out []string
	for _, p := range envStores(pol.Home, wd, pol.Writable...) {
		real := resolvedOr(p)
		if underRunOrTmp(real) || profiles.Within(real, "/dev") || profiles.Within(real, "/proc") || profiles.Within(real, "/sys") {
			continue
		}
		if st, err := os.Stat(real); err == nil && (st.IsDir() || st.Mode().IsRegular()) {
			out = append(out, p)
		}
	}
	return out
}

// passwdFile is the user database accountHome reads.
var passwdFile = "/etc/passwd"

// accountHomeStores are the credential stores in the caller's home as the
// user database has it, where $HOME (home) names another directory: CI
// runners and scripts set HOME=$PWD/.home, `env HOME=…` runs a tool with
// a scratch home, and the stores in the account's own home stayed
// readable to the program (TestAccountHomeStores). Read from /etc/passwd
// itself: an NSS lookup (LDAP, sssd) may take seconds. None where the two
// homes are one directory, or for a home of "/" (system accounts).
func accountHomeStores(home string) []string {
	h := accountHome(os.Getuid())
	if h == "" || h == "/" || !filepath.IsAbs(h) || sameDir(h, home) {
		return nil
	}
	return homeStores(filepath.Clean(h))
}

// accountHome is uid's home in passwdFile, or "".
func accountHome(uid int) string {
	b, err := os.ReadFile(passwdFile)
	if err != nil {
		return ""
	}
	want := strconv.Itoa(uid)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, ":") // name:x:uid:gid:gecos:home:shell
		if len(f) >= 7 && f[2] == want && !strings.HasPrefix(line, "#") {
			return f[5]
		}
	}
	return ""
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
