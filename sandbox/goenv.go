package sandbox

import (
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// goEnvFileMax bounds the read of go's settings file (a few lines).
const goEnvFileMax = 64 << 10

// goEnvFileEnv is getenv with go's own settings file behind it (what go
// env -w writes), which go reads for a variable the environment does not
// set: a user who moved GOPATH and GOCACHE into the workspace there is
// not told on every launch that go writes in ~/go. Other tools get
// getenv as it is.
func goEnvFileEnv(prog *profiles.Program, getenv func(string) string) func(string) string {
	if prog.Name != "go" {
		return getenv
	}
	file := goEnvFile(getenv)
	if file == "" {
		return getenv
	}
	data, err := readRegular(file, false, goEnvFileMax)
	if err != nil {
		return getenv
	}
	vals := parseGoEnv(string(data))
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return vals[k]
	}
}

// goEnvFile is where go looks for its settings file in the program's
// environment (cmd/go's cfg.EnvFile, os.UserConfigDir), or "".
func goEnvFile(getenv func(string) string) string {
	switch f := getenv("GOENV"); f {
	case "off":
		return ""
	case "":
	default:
		return f
	}
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		if !filepath.IsAbs(dir) {
			return ""
		}
		return filepath.Join(dir, "go", "env")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "go", "env")
	}
	return ""
}

// parseGoEnv reads KEY=VALUE lines as go does: a key starts with an
// upper-case letter, the value is trimmed.
func parseGoEnv(data string) map[string]string {
	vals := map[string]string{}
	for _, line := range strings.Split(data, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" || k[0] < 'A' || k[0] > 'Z' {
			continue
		}
		vals[k] = strings.TrimSpace(v)
	}
	return vals
}

// goCacheEnv is getenv with go's build cache behind profiles.GoBuildCache
// and profiles.GoNoBuildCache, found as go finds it (cmd/go's
// cache.DefaultDir): GOCACHE (fileEnv: go's settings file too), else
// os.UserCacheDir's XDG_CACHE_HOME/go-build. A relative one, or
// GOCACHE=off, is none: go stops before it writes there. XDG_CACHE_HOME
// is read from the environment alone, as os.UserCacheDir reads it.
func goCacheEnv(prog *profiles.Program, getenv, fileEnv func(string) string) func(string) string {
	if prog.Name != "go" {
		return fileEnv
	}
	dir := fileEnv("GOCACHE")
	if x := getenv("XDG_CACHE_HOME"); dir == "" && x != "" {
		dir = filepath.Join(x, "go-build")
	}
	off := dir != "" && !filepath.IsAbs(dir)
	return func(k string) string {
		switch {
		case k == profiles.GoBuildCache:
			return dir
		case k == profiles.GoNoBuildCache && off:
			return "1"
		}
		return fileEnv(k)
	}
}
