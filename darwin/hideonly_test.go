package darwin

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestRenderHideAndReadOnly: --hide and --read-only are what the caller
// asked for by name; Linux enforces them with masks and read-only binds
// and refuses to run without. The profile must deny them too, or macOS
// would run the program with the paths readable and writable.
func TestRenderHideAndReadOnly(t *testing.T) {
	p := policy(t, profiles.Policy{
		Mode:       profiles.ModeSandbox,
		AllowWrite: []string{"/Users/alice/src"},
		Hide:       []string{"/Users/alice/secret", "/etc/token"},
		ReadOnly:   []string{"/Users/alice/src/keep"},
	})
	pr, err := Render(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := expand(pr)
	allow := strings.Index(text, `(subpath "/Users/alice/src")`)
	// The last matching rule wins: the deny must follow the allow.
	hide := strings.LastIndex(text, "(deny file-read* file-write* file-link file-clone\n")
	if want := `  (subpath "/Users/alice/secret")` + "\n" + `  (subpath "/private/etc/token")` + "\n)\n"; hide < allow || !strings.Contains(text[hide:], want) {
		t.Errorf("no credential block after the writable roots ending in\n%s\ngot:\n%s", want, text)
	}
	if want := "(deny file-write* file-link\n" + `  (subpath "/Users/alice/src/keep")` + "\n)\n"; !strings.Contains(text[allow:], want) {
		t.Errorf("no block after the writable roots\n%s\ngot:\n%s", want, text)
	}
}
