package profiles

import (
	"slices"
	"testing"
)

func TestEnvCredentialStores(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"none", nil, nil},
		{"gnupg", map[string]string{"GNUPGHOME": "/h/.local/gnupg/"}, []string{"/h/.local/gnupg"}},
		{"xdg config", map[string]string{"XDG_CONFIG_HOME": "/h/.xdg"}, []string{"/h/.xdg/gh", "/h/.xdg/git/credentials",
			"/h/.xdg/containers/auth.json", "/h/.xdg/hub", "/h/.xdg/rclone/rclone.conf", "/h/.xdg/sops/age/keys.txt", "/h/.xdg/google-chrome", "/h/.xdg/chromium", "/h/.xdg/BraveSoftware", "/h/.xdg/microsoft-edge", "/h/.xdg/vivaldi",
			"/h/.xdg/kaggle", "/h/.xdg/doctl/config.yaml", "/h/.xdg/op", "/h/.xdg/pypoetry/auth.toml",
			"/h/.xdg/Bitwarden CLI", "/h/.xdg/glab-cli", "/h/.xdg/helm/registry/config.json", "/h/.xdg/stripe/config.toml",
			"/h/.xdg/dart/pub-credentials.json", "/h/.xdg/dart/pub-tokens.json", "/h/.xdg/ngrok/ngrok.yml", "/h/.xdg/.wrangler/config/default.toml"}},
		{"xdg data and cache", map[string]string{"XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "~/c"}, []string{"/d/keyrings", "/d/python_keyring",
			"/h/c/huggingface/token", "/h/c/huggingface/stored_tokens"}},
		{"hugging face", map[string]string{"HF_HOME": "/hf", "HF_TOKEN_PATH": "/t/hf"}, []string{"/hf/token", "/hf/stored_tokens", "/t/hf"}},
		{"tool dirs", map[string]string{"KAGGLE_CONFIG_DIR": "/k", "POETRY_CONFIG_DIR": "/p",
			"HELM_CONFIG_HOME": "/hc", "BITWARDENCLI_APPDATA_DIR": "/bw"}, []string{"/k/kaggle.json",
			"/p/auth.toml", "/bw", "/hc/registry/config.json"}},
		{"kubeconfig list", map[string]string{"KUBECONFIG": "/h/a.yaml::rel.yaml:/srv/b.yaml"}, []string{"/h/a.yaml", "/wd/rel.yaml", "/srv/b.yaml"}},
		{"cargo", map[string]string{"CARGO_HOME": "/opt/cargo"}, []string{"/opt/cargo/credentials.toml", "/opt/cargo/credentials"}},
		{"relative", map[string]string{"DOCKER_CONFIG": "docker"}, []string{"/wd/docker"}},
		{"relative above", map[string]string{"DOCKER_CONFIG": "..", "GNUPGHOME": "."}, nil},
		{"tilde", map[string]string{"AWS_SHARED_CREDENTIALS_FILE": "~/sec/aws", "GNUPGHOME": "~", "BOTO_CONFIG": "~other/boto"}, []string{"/h/sec/aws", "/wd/~other/boto"}},
		{"home itself", map[string]string{"GNUPGHOME": "/h", "DOCKER_CONFIG": "/h/"}, nil},
		{"above home", map[string]string{"GH_CONFIG_DIR": "/", "CLOUDSDK_CONFIG": "/"}, nil},
		{"root", map[string]string{"AWS_SHARED_CREDENTIALS_FILE": "//"}, nil},
		{"a writable root", map[string]string{"DOCKER_CONFIG": "/work/proj", "GNUPGHOME": "/work"}, nil},
		{"in a writable root", map[string]string{"DOCKER_CONFIG": "/work/proj/.docker"}, []string{"/work/proj/.docker"}},
		{"below a writable root", map[string]string{"CARGO_HOME": "/work/proj", "HF_HOME": "/wd"}, []string{"/work/proj/credentials.toml",
			"/work/proj/credentials", "/wd/token", "/wd/stored_tokens"}},
		{"below home", map[string]string{"POETRY_CONFIG_DIR": "~"}, []string{"/h/auth.toml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EnvCredentialStores(func(k string) string { return tt.env[k] }, "/h", "/wd", "/work/proj", "/wd")
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
