package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirListingsAbsent: a listing skips a credential store's stat only
// where the store cannot be there; a name in another case, a directory
// with a non-ASCII name (casefolding may match it to an ASCII one), and a
// file system whose listing may miss names are stat'ed as before.
func TestDirListingsAbsent(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".ssh", ".AWS", ".config/gh", "odd/.conﬁg"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".netrc"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	in := func(rel ...string) []string {
		var out []string
		for _, r := range rel {
			out = append(out, filepath.Join(home, r))
		}
		return out
	}
	stores := in(".ssh", ".aws", ".netrc", ".kube", ".gnupg", ".terraform.d/credentials.tfrc.json",
		".config/gh", ".config/gcloud", ".config/hub", ".config/op", ".config/dart/pub-tokens.json",
		"odd/.config", "odd/.kube", "odd/.x", "odd/.y",
		"gone/.ssh", "gone/.aws", "gone/.kube", "gone/.docker", ".kube/..", ".config/gh/../.x")
	stores = append(stores, "/proc/self/a", "/proc/self/b", "/proc/self/c", "/proc/self/d")
	for _, c := range []struct {
		path   string
		absent bool
	}{
		{in(".ssh")[0], false},
		{in(".aws")[0], false}, // .AWS: a casefold directory finds it
		{in(".netrc")[0], false},
		{in(".kube")[0], true},
		{in(".terraform.d/credentials.tfrc.json")[0], true}, // from home's listing
		{in(".config/gh")[0], false},
		{in(".config/gcloud")[0], true}, // ~/.config is listed too
		{in(".config/dart/pub-tokens.json")[0], true},
		{in("odd/.config")[0], false}, // a name not ASCII: not usable
		{in("odd/.kube")[0], false},
		{in("gone/.ssh")[0], true},      // its directory is not there
		{"/proc/self/a", false},         // procfs: not a listedFS
		{in(".kube")[0] + "/..", false}, // unclean (CODEX_HOME as set): as the kernel resolves it
		{in(".config/gh")[0] + "/../.x", false},
	} {
		l := listings(stores)
		if got := l.absent(c.path); got != c.absent {
			t.Errorf("absent(%s) = %v, want %v", c.path, got, c.absent)
		}
	}
}
