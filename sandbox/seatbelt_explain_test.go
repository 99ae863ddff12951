package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeatbeltEnvStores: a credential store the caller's environment
// moved (GNUPGHOME=/srv/gpg) is hidden on Linux (TestCredentialStoresMovedByEnv);
// the Seatbelt profile must deny it too, not only the stores below home.
func TestSeatbeltEnvStores(t *testing.T) {
	home := t.TempDir()
	gpg := filepath.Join(t.TempDir(), "gpg")
	if err := os.Mkdir(gpg, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GNUPGHOME", gpg)
	t.Setenv("NPM_CONFIG_USERCONFIG", "/dev/null") // a common way to skip ~/.npmrc: not denied
	o := Options{Mode: ModeSandbox, Home: home, Workdir: home}
	out, err := o.ExplainDarwin("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	if want := "-DHIDDEN_0=" + seatbeltPath(gpg); !strings.Contains(out, want) {
		t.Errorf("no %s in:\n%s", want, out)
	}
	if strings.Contains(out, "=/dev/null") {
		t.Errorf("/dev/null denied:\n%s", out)
	}
}

// seatbeltPath is p as the profile names it on macOS: /tmp under /private.
func seatbeltPath(p string) string {
	if p == "/tmp" || strings.HasPrefix(p, "/tmp/") {
		return "/private" + p
	}
	return p
}
