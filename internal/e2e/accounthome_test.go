//go:build linux

package e2e

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestAccountHomeStores: with $HOME naming another directory than the
// account's home in the user database (CI's HOME=$PWD/.home, env HOME=…),
// the credential stores in the account's home were not masked, and the
// program read them. Root only: the store must lie in root's own home,
// /root (nobody's is /nonexistent); the test makes /root/.s3cfg, one of
// the stores, only where there is none, and removes it. rwx is the
// control.
func TestAccountHomeStores(t *testing.T) {
	const store = "/root/.s3cfg"
	if _, err := os.Lstat(store); !errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is there already: not the test's to replace", store)
	}
	if err := os.WriteFile(store, []byte("SECRET-ACCOUNT-HOME\n"), 0o600); err != nil {
		t.Skipf("cannot make %s: %v", store, err)
	}
	t.Cleanup(func() { os.Remove(store) })
	w := newWorld(t, rootUser) // HOME is the world's home, not /root
	for _, mode := range []string{"rwx", "sandbox"} {
		r := w.run("--mode", mode, "--", "/bin/cat", store)
		read := strings.Contains(r.stdout, "SECRET-ACCOUNT-HOME")
		if want := mode == "rwx"; read != want {
			t.Errorf("%s: read %s: %v, want %v (stdout %q, stderr %q)", mode, store, read, want, r.stdout, r.stderr)
		}
	}
}
