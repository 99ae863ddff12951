package profiles

import "slices"

// credentialStores lists, relative to home, the well-known places where
// credentials live. sandbox mode hides them (empty read-only on Linux,
// denied reads on macOS); --hide adds more.
var credentialStores = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker",
	".netrc", ".git-credentials", ".config/git/credentials", ".password-store", ".config/gh", ".npmrc",
	".pypirc", ".cargo/credentials.toml", ".local/share/keyrings",
	// Cargo still reads its credentials under their older name; podman's
	// registry logins; terraform login's and vault login's tokens;
	// PostgreSQL's passwords; the tokens of hub, RubyGems, Pulumi,
	// rclone, s3cmd and boto (gsutil); sops' age keys.
	".cargo/credentials", ".config/containers/auth.json", ".terraform.d/credentials.tfrc.json",
	".vault-token", ".pgpass", ".config/hub", ".gem/credentials", ".pulumi/credentials.json",
	".config/rclone/rclone.conf", ".s3cfg", ".boto", ".config/sops/age/keys.txt",
	// Logins of more tools, each file read by its own tool only, and
	// harmless empty (a hidden file is an empty one): Maven's master
	// password (settings.xml stays: its mirrors and proxies serve builds);
	// the Hugging Face token (also at its older place); Kaggle, doctl,
	// flyctl, the 1Password CLI and OCI (with its API keys); yarn's home
	// .yarnrc.yml, where `yarn npm login` writes npmAuthToken, hidden as
	// ~/.npmrc is; Poetry's credentials without a keyring; python
	// keyring's file backends; the Bitwarden CLI's vault; glab; helm
	// registry login; sentry-cli; Databricks; the Stripe CLI; Subversion's
	// cached passwords (its config and servers stay); Dart pub's tokens
	// (also pub.dev's before Dart 2.15); ngrok and wrangler (also at their
	// older places); hcloud. Composer's auth.json is not here: composer stops on
	// an empty one, even for an install that needs no login.
	".m2/settings-security.xml", ".cache/huggingface/token", ".cache/huggingface/stored_tokens",
	".huggingface/token", ".kaggle", ".config/kaggle",
	".config/doctl/config.yaml", ".fly/config.yml", ".config/op", ".op", ".oci", ".yarnrc.yml",
	".config/pypoetry/auth.toml", ".local/share/python_keyring", ".config/Bitwarden CLI", ".config/glab-cli",
	".config/helm/registry/config.json", ".sentryclirc", ".databrickscfg", ".config/stripe/config.toml",
	".subversion/auth", ".config/dart/pub-credentials.json", ".config/dart/pub-tokens.json",
	".pub-cache/credentials.json", ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml", ".wrangler/config/default.toml",
	".config/.wrangler/config/default.toml", ".config/hcloud/cli.toml",
}

// browserProfiles hold cookies and saved passwords, per OS.
var browserProfiles = map[string][]string{
	"linux": {
		".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
		".config/microsoft-edge", ".config/vivaldi", "snap/firefox", "snap/chromium",
	},
	"darwin": {
		"Library/Application Support/Google/Chrome",
		"Library/Application Support/Firefox",
		"Library/Keychains",
	},
}

// CredentialStores returns, relative to home, what sandbox mode hides on
// goos: the credential stores, then the browser profiles.
func CredentialStores(goos string) []string {
	return append(slices.Clone(credentialStores), browserProfiles[goos]...)
}

// RunsLater lists files, relative to a project directory, that tools
// outside the sandbox execute later (direnv, editors, MCP clients, Claude
// Code's hooks, git). sandbox mode keeps existing ones read-only inside
// every writable root and reports, after the run, the ones the program
// made. Claude Code's .claude/settings.local.json is not here: Claude
// writes it ("don't ask again"); omega-run reports what the program
// changed in it after the run.
var RunsLater = []string{
	".envrc", ".vscode/tasks.json", ".vscode/launch.json", ".vscode/settings.json",
	".idea/workspace.xml", ".mcp.json", ClaudeProjectSettings, ".devcontainer/devcontainer.json",
	".devcontainer.json",
}

// ClaudeProjectSettings is a project's shared Claude Code settings (its
// hooks run in every Claude Code started there). In ~/.claude, the user's
// own settings, it is not held: ~/.claude is writable by design.
const ClaudeProjectSettings = ".claude/settings.json"

// RunsLaterTool names, for each RunsLater file, the tool that runs what
// it says, for the warning about one a program made.
var RunsLaterTool = map[string]string{
	".envrc": "direnv", ".vscode/tasks.json": "VS Code", ".vscode/launch.json": "VS Code",
	".vscode/settings.json": "VS Code", ".idea/workspace.xml": "a JetBrains IDE", ".mcp.json": "Claude Code",
	".devcontainer/devcontainer.json": "Dev Containers", ".devcontainer.json": "Dev Containers",
	ClaudeProjectSettings: "Claude Code",
}

// GitRunsLater are the parts of a git dir (.git, and each submodule's and
// linked worktree's below it) that run code or point git at files that
// do: hooks, the config that can name programs (core.fsmonitor,
// core.pager, credential helpers, aliases), the per-worktree config, and
// commondir, which redirects git to another directory's config and hooks.
// The rest of .git stays writable so that commits work.
// --writable-git-config opts out.
var GitRunsLater = []string{"hooks", "config", "config.worktree", "commondir"}

// ClaudeDataDirs are the directories in ~/.claude where Claude Code
// keeps what it records as it works (code.claude.com/docs/en/claude-directory,
// "application data"), which the scan for files that run later skips.
var ClaudeDataDirs = []string{
	"projects", "file-history", "session-env", "shell-snapshots", "todos", "tasks", "plans",
	"debug", "paste-cache", "image-cache", "backups", "statsig", "telemetry", "cache",
}

// ScanDepth bounds how deep below each writable root sandbox mode looks
// for repositories and RunsLater files, so start-up stays fast on big
// trees.
const ScanDepth = 3
