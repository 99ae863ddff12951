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
// PostgreSQL's passwords, rclone's cloud tokens; later Maven's master
// password, the Hugging Face, Kaggle, doctl, flyctl, 1Password,
// OCI, yarn, Poetry, python keyring, Bitwarden, glab, Helm registry,
// sentry-cli, Databricks, Stripe, Dart pub, ngrok, wrangler and hcloud
// logins, Subversion's cached passwords) are hidden in sandbox mode; rwx
// is the control. Before, the program read them.
func TestCredentialFilesListed(t *testing.T) {
	rels := []string{".cargo/credentials", ".config/containers/auth.json", ".terraform.d/credentials.tfrc.json",
		".vault-token", ".pgpass", ".config/rclone/rclone.conf", ".gem/credentials",
		".m2/settings-security.xml", ".cache/huggingface/token", ".cache/huggingface/stored_tokens",
		".huggingface/token", ".kaggle/kaggle.json", ".config/kaggle/kaggle.json", ".config/doctl/config.yaml", ".fly/config.yml", ".config/op/config", ".op/config",
		".oci/config", ".oci/oci_api_key.pem", ".yarnrc.yml", ".config/pypoetry/auth.toml",
		".local/share/python_keyring/keyring_pass.cfg", ".config/Bitwarden CLI/data.json",
		".config/glab-cli/config.yml", ".config/helm/registry/config.json", ".sentryclirc", ".databrickscfg",
		".config/stripe/config.toml", ".subversion/auth/svn.simple/0123abcd", ".config/dart/pub-credentials.json",
		".config/dart/pub-tokens.json", ".pub-cache/credentials.json", ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml",
		".wrangler/config/default.toml", ".config/.wrangler/config/default.toml", ".config/hcloud/cli.toml"}
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

// TestCredentialStoresMovedByToolEnv: the variables that move the stores
// added later (Hugging Face's HF_HOME, HF_TOKEN_PATH and XDG_CACHE_HOME,
// KAGGLE_CONFIG_DIR, OP_CONFIG_DIR, OCI_CLI_CONFIG_FILE,
// POETRY_CONFIG_DIR, XDG_DATA_HOME for python keyring's files,
// BITWARDENCLI_APPDATA_DIR, GLAB_CONFIG_DIR, HELM_REGISTRY_CONFIG and
// HELM_CONFIG_HOME, DATABRICKS_CONFIG_FILE, PUB_CACHE, HCLOUD_CONFIG,
// XDG_CONFIG_HOME for doctl, Poetry, glab, Helm, 1Password, Bitwarden,
// Stripe, Dart pub, ngrok and wrangler) are followed as the older ones
// are; rwx is the control. Before, the program read every file.
func TestCredentialStoresMovedByToolEnv(t *testing.T) {
	type moved struct{ env, value, file string } // value and file below home
	cases := []moved{
		{"HF_HOME", "hf", "hf/token"}, {"HF_HOME", "hf", "hf/stored_tokens"},
		{"HF_TOKEN_PATH", "hftok", "hftok"}, {"XDG_CACHE_HOME", "cache2", "cache2/huggingface/token"},
		{"KAGGLE_CONFIG_DIR", "kag", "kag/kaggle.json"},
		{"OP_CONFIG_DIR", "op2", "op2/config"}, {"OCI_CLI_CONFIG_FILE", "oci2", "oci2"},
		{"POETRY_CONFIG_DIR", "poe", "poe/auth.toml"}, {"XDG_DATA_HOME", "data2", "data2/python_keyring/keyring_pass.cfg"},
		{"BITWARDENCLI_APPDATA_DIR", "bw", "bw/data.json"}, {"GLAB_CONFIG_DIR", "glab", "glab/config.yml"},
		{"HELM_REGISTRY_CONFIG", "helmreg", "helmreg"}, {"HELM_CONFIG_HOME", "helm2", "helm2/registry/config.json"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/doctl/config.yaml"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/pypoetry/auth.toml"}, {"XDG_CONFIG_HOME", "xdg", "xdg/glab-cli/config.yml"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/helm/registry/config.json"}, {"XDG_CONFIG_HOME", "xdg", "xdg/op/config"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/Bitwarden CLI/data.json"}, {"XDG_CONFIG_HOME", "xdg", "xdg/kaggle/kaggle.json"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/stripe/config.toml"}, {"DATABRICKS_CONFIG_FILE", "dbcfg", "dbcfg"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/dart/pub-tokens.json"}, {"XDG_CONFIG_HOME", "xdg", "xdg/ngrok/ngrok.yml"},
		{"XDG_CONFIG_HOME", "xdg", "xdg/.wrangler/config/default.toml"}, {"PUB_CACHE", "pubc", "pubc/credentials.json"},
		{"HCLOUD_CONFIG", "hcl.toml", "hcl.toml"},
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				for _, c := range cases {
					f := secretAt(t, w, c.file)
					r := w.runEnv([]string{c.env + "=" + filepath.Join(w.home, c.value)}, "--mode", mode, "--", probe, "read", f)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: %s=~/%s: read ~/%s: %v (exit %d, stderr %.300q)", mode, c.env, c.value, c.file, got, r.code, r.stderr)
					}
				}
			}
		})
	}
}

// TestEnvStoreInWritableToolHome: a tool's home that the launch makes
// writable so that the tool can work (--allow-write on CARGO_HOME for
// cargo's registry, on HF_HOME for downloaded models) keeps its login
// hidden: the home is no store, the file below it is one. rwx is the
// control. Before, the whole variable was skipped as a writable root and
// the program read both files.
func TestEnvStoreInWritableToolHome(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				files := []string{secretAt(t, w, "cargo/credentials.toml"), secretAt(t, w, "hf/token")}
				env := []string{"CARGO_HOME=" + filepath.Dir(files[0]), "HF_HOME=" + filepath.Dir(files[1])}
				for _, f := range files {
					r := w.runEnv(env, "--mode", mode, "--allow-write", filepath.Dir(f), "--", probe, "read", f)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: read %s with its directory writable: %v (exit %d, stderr %.300q)", mode, f, got, r.code, r.stderr)
					}
				}
				// The rest of the tool's home stays writable.
				reg := filepath.Join(w.home, "cargo", "registry")
				r := w.runEnv(env, "--mode", mode, "--allow-write", filepath.Dir(files[0]), "--", "/bin/mkdir", reg)
				if r.code != 0 {
					t.Errorf("%s: mkdir %s: exit %d, stderr %.300q", mode, reg, r.code, r.stderr)
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
