package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// pipConfMax bounds the read of each pip config file (a few lines).
const pipConfMax = 64 << 10

// pipConfEnv is getenv with pip's config files behind PIP_CACHE_DIR and
// PIP_NO_CACHE_DIR, which pip reads for an option the environment does
// not set: a user whose pip.conf puts the cache in the workspace, or
// turns it off, is not told on every launch that pip writes
// ~/.cache/pip. Other tools get getenv as it is.
func pipConfEnv(prog *profiles.Program, getenv func(string) string) func(string) string {
	if prog.Name != "pip" {
		return getenv
	}
	merged := map[string]string{}
	for _, f := range pipConfFiles(getenv) {
		if data, err := readRegular(f, false, pipConfMax); err == nil {
			parsePipConf(string(data), merged)
		}
	}
	// The command's section wins over [global], as in pip; the cache is
	// install's.
	pick := func(key string) (string, bool) {
		if v, ok := merged["install."+key]; ok {
			return v, true
		}
		v, ok := merged["global."+key]
		return v, ok
	}
	cache, _ := pick("cache-dir")
	if strings.HasPrefix(cache, "~/") {
		cache = filepath.Join(getenv("HOME"), cache[2:])
	}
	_, noCache := pick("no-cache-dir") // any value turns the cache off
	return func(k string) string {
		v := getenv(k)
		switch {
		case v != "":
		case k == "PIP_CACHE_DIR":
			v = cache
		case k == "PIP_NO_CACHE_DIR" && noCache:
			v = "1"
		}
		return v
	}
}

// pipConfFiles are the files pip reads its options from, in the order
// later ones override (pip's configuration.py): global, then the user's
// (not when PIP_CONFIG_FILE names a file), then the virtualenv's, then
// PIP_CONFIG_FILE's; none when that is /dev/null.
func pipConfFiles(getenv func(string) string) []string {
	env := getenv("PIP_CONFIG_FILE")
	if env == os.DevNull {
		return nil
	}
	var files []string
	xdgDirs := getenv("XDG_CONFIG_DIRS")
	if xdgDirs == "" {
		xdgDirs = "/etc/xdg"
	}
	for _, d := range strings.Split(xdgDirs, ":") {
		if filepath.IsAbs(d) {
			files = append(files, filepath.Join(d, "pip", "pip.conf"))
		}
	}
	files = append(files, "/etc/pip.conf")
	if _, err := os.Stat(env); env == "" || err != nil {
		home := getenv("HOME")
		config := getenv("XDG_CONFIG_HOME")
		if !filepath.IsAbs(config) {
			config = filepath.Join(home, ".config")
		}
		if filepath.IsAbs(home) {
			files = append(files, filepath.Join(home, ".pip", "pip.conf"))
		}
		if filepath.IsAbs(config) {
			files = append(files, filepath.Join(config, "pip", "pip.conf"))
		}
	}
	if venv := getenv("VIRTUAL_ENV"); filepath.IsAbs(venv) {
		files = append(files, filepath.Join(venv, "pip.conf"))
	}
	if env != "" {
		files = append(files, env)
	}
	return files
}

// parsePipConf adds an INI file's "section.key" values to merged (keys
// lower-case, as Python's configparser makes them).
func parsePipConf(data string, merged map[string]string) {
	section := ""
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
		default:
			i := strings.IndexAny(line, "=:")
			if i <= 0 || section == "" {
				continue
			}
			merged[section+"."+strings.ToLower(strings.TrimSpace(line[:i]))] = strings.TrimSpace(line[i+1:])
		}
	}
}
