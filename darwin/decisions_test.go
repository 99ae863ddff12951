package darwin

import (
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

type decision struct {
	op, path string
	allow    bool
}

// checkDecisions renders in and checks each decision under both readings
// of Seatbelt's precedence (see sbpleval_test.go).
func checkDecisions(t *testing.T, in profiles.Policy, ds []decision) {
	t.Helper()
	pr, err := Render(policy(t, in), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		checkDecision(t, pr, d.op, d.path, d.allow)
	}
}

// TestProfileDecisions: what the rendered profiles decide, in the paths
// macOS checks. The rows that are not about hard links, clones, devices
// or signals held before too.
func TestProfileDecisions(t *testing.T) {
	const h = testHome
	common := []decision{
		{"file-write-data", h + "/.omega/workspace/a", true},
		{"file-write-create", "/private/tmp/x", true},
		{"file-write-data", "/private/var/folders/ab/cd/T/x", true},
		{"file-write-data", h + "/.claude/settings.json", true},
		{"file-write-data", h + "/.zshrc", false},
		{"file-write-unlink", "/usr/local/bin/x", false},
		{"file-write-data", h + "/.omega/config.toml", false},
		{"file-write-unlink", h + "/.omega", false}, // pinned: moving it aside moves the config
		{"file-write-create", h + "/.omega/workspace/b", true},
		// A hard link is one inode under two names, and Seatbelt judges
		// the name used: one made in a writable root to a file outside
		// (or to a protected one inside) would be written through there.
		{"file-link", h + "/.zshrc", false},
		{"file-link", "/usr/local/bin/x", false},
		{"file-link", h + "/.omega/config.toml", false},
		{"file-link", h + "/.omega/workspace/a", true},
		{"file-link", "/private/tmp/a", true},
		// A clone is a copy (APFS copy-on-write): the source is only read.
		{"file-clone", h + "/.zshrc", true},
		// The bit buckets are written, never created, removed or chmod'ed
		// (as root the program could otherwise replace /dev/null).
		{"file-write-data", "/dev/null", true},
		{"file-write-unlink", "/dev/null", false},
		{"file-write-create", "/dev/null", false},
		{"file-write-mode", "/dev/zero", false},
		{"file-write-data", "/dev/urandom", true},
		{"file-write-data", "/dev/random", true},
		{"file-write-data", "/dev/dtracehelper", true}, // dyld registers a program's DTrace probes there
		{"file-write-data", "/dev/tty", true},
		{"file-write-data", "/dev/ttys004", true},
		{"file-write-mode", "/dev/ttys004", true},
		{"file-write-data", "/dev/fd/1", true},
		{"file-write-data", "/dev/disk0", false},
		// Signals reach the program's own processes only, as Linux's
		// pid namespace and Landlock scoping have it: not the user's
		// other processes (nor omega-run's caller).
		{"signal", "same-sandbox", true},
		{"signal", "others", false},
	}
	t.Run("rx", func(t *testing.T) {
		checkDecisions(t, profiles.Policy{Mode: profiles.ModeRX}, append(common,
			decision{"file-read-data", h + "/.ssh/id_ed25519", true},
			decision{"file-link", h + "/.ssh/id_ed25519", false},
		))
	})
	t.Run("sandbox", func(t *testing.T) {
		checkDecisions(t, profiles.Policy{Mode: profiles.ModeSandbox}, append(common,
			decision{"file-read-data", h + "/.ssh/id_ed25519", false},
			decision{"file-write-data", h + "/.ssh/authorized_keys", false},
			// A link or clone of a key in /tmp would be read there.
			decision{"file-link", h + "/.ssh/id_ed25519", false},
			decision{"file-clone", h + "/.ssh/id_ed25519", false},
			decision{"file-clone", h + "/.aws/credentials", false},
			decision{"file-read-data", h + "/.sshx", true},
		))
	})
}

// TestProfileDecisionsNarrowed: --allow-write, --read-only and --hide,
// with a home the program may write (the credential stores in it stay
// denied, links and clones of them too).
func TestProfileDecisionsNarrowed(t *testing.T) {
	const h = testHome
	checkDecisions(t, profiles.Policy{
		Mode:       profiles.ModeSandbox,
		AllowWrite: []string{h},
		ReadOnly:   []string{h + "/src/keep"},
		Hide:       []string{h + "/secret"},
	}, []decision{
		{"file-write-data", h + "/.zshrc", true},
		{"file-link", h + "/.zshrc", true},
		{"file-write-data", h + "/src/keep/f", false},
		{"file-link", h + "/src/keep/f", false},
		{"file-write-data", h + "/src/other", true},
		{"file-read-data", h + "/secret/f", false},
		{"file-link", h + "/secret/f", false},
		{"file-clone", h + "/secret/f", false},
		{"file-link", h + "/.ssh/id_ed25519", false},
		{"file-write-create", h + "/.ssh/authorized_keys", false},
		{"file-write-unlink", h + "/.ssh", false},
		{"file-write-unlink", h, false},
	})
}

// TestProfileDecisionsDataVolume: macOS checks a path in the firmlinked
// namespace (/Users/…), also when it was opened as
// /System/Volumes/Data/Users/…, so a rule naming the Data volume's
// spelling matches nothing: a --hide or --read-only given that way was
// readable and writable, an --allow-write granted nothing.
func TestProfileDecisionsDataVolume(t *testing.T) {
	const data = "/System/Volumes/Data"
	checkDecisions(t, profiles.Policy{
		Mode:       profiles.ModeSandbox,
		AllowWrite: []string{data + testHome + "/src", data + "/Volumes/Work"},
		ReadOnly:   []string{data + testHome + "/src/keep"},
		Hide:       []string{data + testHome + "/secret", data + "/private/etc/token"},
	}, []decision{
		{"file-write-data", testHome + "/src/a", true},
		{"file-write-data", "/Volumes/Work/a", true},
		{"file-write-data", testHome + "/src/keep/a", false},
		{"file-read-data", testHome + "/secret/a", false},
		{"file-read-data", "/private/etc/token", false},
	})
}
