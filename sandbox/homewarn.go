package sandbox

import (
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// homeWritableWarning is said when an --allow-write root holds the whole
// home directory (--allow-write ~, which the hints for git and npm
// offer): then the files that run code at the user's next login or shell
// (~/.bashrc, ~/.profile, autostart entries) and credential stores that do
// not exist yet (~/.ssh/authorized_keys) can be written, and sandbox mode
// keeps only existing credential stores and project files read-only. It
// is the user's grant, so a warning, not a --fail-closed error.
func homeWritableWarning(pol profiles.Policy) string {
	if pol.Mode == profiles.ModeRWX || pol.Home == "" {
		return ""
	}
	home := filepath.Clean(pol.Home)
	for _, root := range pol.AllowWrite {
		root = filepath.Clean(root)
		if home == root || strings.HasPrefix(home, strings.TrimSuffix(root, "/")+"/") {
			return "--allow-write " + root + " makes the whole home directory writable: the program can change " +
				"what runs at your next login or shell (~/.bashrc, ~/.profile, ~/.config/autostart) and create " +
				"credential stores that do not exist yet (~/.ssh/authorized_keys); allow narrower directories"
		}
	}
	return ""
}
