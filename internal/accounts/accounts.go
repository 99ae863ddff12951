// Package accounts reads the local account files themselves, not through
// NSS: an LDAP or sssd lookup may take seconds, on every launch.
// Accounts only those services know are not found.
package accounts

import (
	"os"
	"strconv"
	"strings"
)

// The files read (a test points them elsewhere).
var PasswdFile, GroupFile = "/etc/passwd", "/etc/group"

// Lines returns path's entries split at ':', comments and blank lines
// left out; none where it cannot be read.
func Lines(path string) [][]string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, strings.Split(line, ":"))
		}
	}
	return out
}

// Home returns uid's home in PasswdFile, or "".
func Home(uid int) string {
	want := strconv.Itoa(uid)
	for _, f := range Lines(PasswdFile) { // name:x:uid:gid:gecos:home:shell
		if len(f) >= 7 && f[2] == want {
			return f[5]
		}
	}
	return ""
}
