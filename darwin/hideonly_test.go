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
	for rule, want := range map[string]string{
		"(deny file-read* file-write*\n": `  (subpath "/Users/alice/secret")` + "\n" + `  (subpath "/private/etc/token")` + "\n)\n",
		"(deny file-write*\n":            `  (subpath "/Users/alice/src/keep")` + "\n)\n",
	} {
		// The last matching rule wins: the deny must follow the allow.
		i := strings.LastIndex(text, rule)
		if i < allow || !strings.Contains(text[i:], want) {
			t.Errorf("no %q block after the writable roots holding\n%s\ngot:\n%s", rule, want, text)
		}
	}
}
