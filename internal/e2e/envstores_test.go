//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCredentialStoresMovedByEnv: the user keeps credential stores where
// the standard variables say (XDG_CONFIG_HOME for gh's token, GNUPGHOME,
// a KUBECONFIG list), not at the home-relative places the masks cover.
// sandbox mode must hide them as it hides ~/.config/gh, ~/.gnupg and
// ~/.kube; rwx is the control. Before, the program read all three.
func TestCredentialStoresMovedByEnv(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				files := []string{
					secretAt(t, w, "xdg/gh/hosts.yml"),
					secretAt(t, w, "gpg2/private-keys-v1.d/k.key"),
					secretAt(t, w, "kube/a.yaml"),
					secretAt(t, w, "kube/b.yaml"),
				}
				env := []string{"XDG_CONFIG_HOME=" + filepath.Join(w.home, "xdg"), "GNUPGHOME=" + filepath.Join(w.home, "gpg2"),
					"KUBECONFIG=" + files[2] + ":" + files[3]}
				for _, f := range files {
					r := w.runEnv(env, "--mode", mode, "--", probe, "read", f)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: read %s: %v (exit %d, stderr %.300q)", mode, f, got, r.code, r.stderr)
					}
				}
			}
		})
	}
}

// TestCredentialFilesListed: credential files of common tools that the
// list of stores lacked (cargo's credentials under its older name,
// podman's registry logins, terraform login's and vault login's tokens,
// PostgreSQL's passwords, rclone's cloud tokens) are hidden in sandbox
// mode; rwx is the control. Before, the program read them.
func TestCredentialFilesListed(t *testing.T) {
	rels := []string{".cargo/credentials", ".config/containers/auth.json", ".terraform.d/credentials.tfrc.json",
		".vault-token", ".pgpass", ".config/rclone/rclone.conf", ".gem/credentials"}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				for _, rel := range rels {
					p := secretAt(t, w, rel)
					r := w.run("--mode", mode, "--", probe, "read", p)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: read ~/%s: %v (exit %d, stderr %.300q)", mode, rel, got, r.code, r.stderr)
					}
				}
			}
		})
	}
}

// TestEnvStoreDevNull: a variable that names /dev/null (the usual way to
// skip ~/.npmrc) or a host /tmp file is no store to hide: the program's
// /dev/null and private /tmp stay writable.
func TestEnvStoreDevNull(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			tmp := filepath.Join("/tmp", "omega-npmrc-"+worldID(w))
			writeFile(t, tmp, "")
			t.Cleanup(func() { os.Remove(tmp) })
			for _, v := range []string{"/dev/null", tmp} {
				r := w.runEnv([]string{"NPM_CONFIG_USERCONFIG=" + v}, "--", "/bin/sh", "-c", "echo x >/dev/null && echo x >"+tmp+" && echo OK")
				if !strings.Contains(r.stdout, "OK") {
					t.Errorf("NPM_CONFIG_USERCONFIG=%s: exit %d, stdout %q, stderr %.300q", v, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// TestEnvStoreLinkToHome: a variable that names, through a symlink, the
// home or a writable root (GNUPGHOME=/data/gpg where /data/gpg -> the
// home, as on systems whose /home is a link) is no store to hide: the
// mask would land on the link's target and take the whole home, or the
// project, from the program. Before, the program lost its home.
func TestEnvStoreLinkToHome(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			link := filepath.Join(w.extra, "gpg")
			if err := os.Symlink(w.home, link); err != nil {
				t.Fatal(err)
			}
			r := w.runEnv([]string{"GNUPGHOME=" + link}, "--", probe, "read", filepath.Join(w.outside, "sentinel"))
			if !strings.Contains(r.stdout, "original") {
				t.Errorf("read ~/outside/sentinel: exit %d, stdout %q, stderr %.300q", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestEnvStoreRelative: a store named relative to the program's working
// directory (KUBECONFIG=kube/config, as a project's .envrc sets it) or
// with a leading ~ that the tools expand themselves (AWS's and boto's
// Python libraries, GnuPG) is hidden in sandbox mode as an absolute one
// is; rwx is the control. Before, both were skipped and readable.
func TestEnvStoreRelative(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				w.dir = filepath.Join(w.home, "proj")
				files := []string{secretAt(t, w, "proj/kube/config"), secretAt(t, w, "aws/creds")}
				env := []string{"KUBECONFIG=kube/config", "AWS_SHARED_CREDENTIALS_FILE=~/aws/creds"}
				for _, f := range files {
					r := w.runEnv(env, "--mode", mode, "--", probe, "read", f)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: read %s: %v (exit %d, stderr %.300q)", mode, f, got, r.code, r.stderr)
					}
				}
			}
		})
	}
}
