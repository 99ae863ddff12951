package profiles

import (
	"path/filepath"
	"slices"
	"strings"
)

// envStores are the variables that move a credential store away from its
// place in home (credentialStores), and what lies at the new place: the
// value itself (""), or names below it. A user who sets one keeps the
// store there, where the home-relative list does not look.
var envStores = []struct {
	env   string
	below []string
	list  bool // a colon-separated list of paths (KUBECONFIG)
}{
	{env: "XDG_CONFIG_HOME", below: []string{"gh", "git/credentials", "containers/auth.json", "hub", "rclone/rclone.conf",
		"sops/age/keys.txt", "google-chrome", "chromium", "BraveSoftware", "microsoft-edge", "vivaldi",
		"kaggle", "doctl/config.yaml", "op", "pypoetry/auth.toml", "Bitwarden CLI", "glab-cli",
		"helm/registry/config.json", "stripe/config.toml", "dart/pub-credentials.json", "dart/pub-tokens.json",
		"ngrok/ngrok.yml", ".wrangler/config/default.toml"}},
	{env: "XDG_DATA_HOME", below: []string{"keyrings", "python_keyring"}},
	{env: "XDG_CACHE_HOME", below: []string{"huggingface/token", "huggingface/stored_tokens"}},
	{env: "GNUPGHOME", below: []string{""}},
	{env: "GH_CONFIG_DIR", below: []string{""}},
	{env: "CLOUDSDK_CONFIG", below: []string{""}},
	{env: "DOCKER_CONFIG", below: []string{""}},
	{env: "AZURE_CONFIG_DIR", below: []string{""}},
	{env: "PASSWORD_STORE_DIR", below: []string{""}},
	{env: "AWS_SHARED_CREDENTIALS_FILE", below: []string{""}},
	{env: "AWS_CONFIG_FILE", below: []string{""}},
	{env: "KUBECONFIG", below: []string{""}, list: true},
	{env: "CARGO_HOME", below: []string{"credentials.toml", "credentials"}},
	{env: "NPM_CONFIG_USERCONFIG", below: []string{""}},
	{env: "npm_config_userconfig", below: []string{""}},
	{env: "NETRC", below: []string{""}},
	{env: "REGISTRY_AUTH_FILE", below: []string{""}},
	{env: "PGPASSFILE", below: []string{""}},
	{env: "RCLONE_CONFIG", below: []string{""}},
	{env: "BOTO_CONFIG", below: []string{""}},
	{env: "SOPS_AGE_KEY_FILE", below: []string{""}},
	{env: "HF_HOME", below: []string{"token", "stored_tokens"}},
	{env: "HF_TOKEN_PATH", below: []string{""}},
	// The file only: the variable may name a shared directory (Downloads).
	{env: "KAGGLE_CONFIG_DIR", below: []string{"kaggle.json"}},
	{env: "OP_CONFIG_DIR", below: []string{""}},
	{env: "OCI_CLI_CONFIG_FILE", below: []string{""}},
	{env: "POETRY_CONFIG_DIR", below: []string{"auth.toml"}},
	{env: "BITWARDENCLI_APPDATA_DIR", below: []string{""}},
	{env: "GLAB_CONFIG_DIR", below: []string{""}},
	{env: "HELM_REGISTRY_CONFIG", below: []string{""}},
	{env: "HELM_CONFIG_HOME", below: []string{"registry/config.json"}},
	{env: "DATABRICKS_CONFIG_FILE", below: []string{""}},
	{env: "PUB_CACHE", below: []string{"credentials.json"}},
	{env: "HCLOUD_CONFIG", below: []string{""}},
}

// EnvCredentialStores lists where the variables in getenv (the user's
// environment) put credential stores, absolute and clean: a leading ~ is
// home (GnuPG and Python's libraries expand it), a relative value lies
// in wd, the program's working directory, where its tools look (skipped
// when wd is ""). A store that is home, one of writable or a directory
// above one is skipped, as is any below a value naming the root: hiding
// it would hide those. A tool's home made writable (CARGO_HOME, HF_HOME)
// still has its credential files hidden below it.
func EnvCredentialStores(getenv func(string) string, home, wd string, writable ...string) []string {
	var out []string
	keep := append([]string{home}, writable...)
	for _, e := range envStores {
		v := getenv(e.env)
		values := []string{v}
		if e.list {
			values = strings.Split(v, ":")
		}
		for _, v := range values {
			dir := absolute(v, home, wd)
			if dir == "" || dir == "/" {
				continue
			}
			for _, b := range e.below {
				p := filepath.Join(dir, b)
				if !slices.ContainsFunc(keep, func(k string) bool { return Within(k, p) }) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// absolute is v as a tool would find it: "" when it cannot tell.
func absolute(v, home, wd string) string {
	switch {
	case v == "":
		return ""
	case v == "~" || strings.HasPrefix(v, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, v[1:])
	case filepath.IsAbs(v):
		return filepath.Clean(v)
	case wd == "":
		return ""
	}
	return filepath.Join(wd, v)
}
