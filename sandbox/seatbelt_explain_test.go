package sandbox

import (
	"io/fs"
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

// seatbeltPath is p as the profile names it on macOS: /tmp, /var and
// /etc under /private (a test binary or TMPDIR in /var/tmp failed the
// tests that compared with /tmp's form only).
func seatbeltPath(p string) string {
	for _, l := range []string{"/tmp", "/var", "/etc"} {
		if p == l || strings.HasPrefix(p, l+"/") {
			return "/private" + p
		}
	}
	return p
}

// TestSeatbeltSelfReadOnly: an omega-run binary in the writable set is
// kept read-only on Linux in sandbox mode (a bind) and warned about in
// rx, where Landlock cannot exempt one file; Seatbelt can, in both modes:
// else the program rewrites the launcher that runs it next time.
func TestSeatbeltSelfReadOnly(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for _, mode := range []Mode{ModeRX, ModeSandbox} {
		o := Options{Mode: mode, Home: t.TempDir(), AllowWrite: []string{filepath.Dir(self)}}
		out, err := o.ExplainDarwin("/bin/true")
		if err != nil {
			t.Fatal(err)
		}
		if want := "-DREAD_ONLY_0=" + seatbeltPath(self); !strings.Contains(out, want) {
			t.Errorf("%s: no %s in:\n%s", mode, want, out)
		}
	}
}

// TestSeatbeltCheck: `omega-run check` on macOS says sandbox mode gets
// everything when sandbox-exec is there, and names it when it is not.
// It rendered a profile for a data dir of "/" instead, which the renderer
// refuses, so check failed on every Mac without looking at sandbox-exec.
func TestSeatbeltCheck(t *testing.T) {
	if r := seatbeltCheck(func(string) error { return nil }); !r.Full || r.NamespacesError != "" {
		t.Errorf("with sandbox-exec: %+v, want full", r)
	}
	r := seatbeltCheck(func(string) error { return fs.ErrNotExist })
	if r.Full || !strings.Contains(r.NamespacesError, "sandbox-exec not found at /usr/bin/sandbox-exec") {
		t.Errorf("without sandbox-exec: %+v, want not full, naming it", r)
	}
}
