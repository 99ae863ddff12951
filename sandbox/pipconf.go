package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// pipConfMax bounds the read of each pip config file (a few lines).
const pipConfMax = 64 << 10

// pipConfEnv is getenv with pip's cache behind profiles.PipCache
// (pipCacheDir) and its config files behind PIP_NO_CACHE_DIR, which pip
// reads for an option the environment does not set: a user whose
// pip.conf puts the cache in the workspace, or turns it off (or whose
// args say --no-cache-dir), is not told on every launch that pip writes
// ~/.cache/pip. Other tools get getenv as it is.
func pipConfEnv(prog *profiles.Program, args []string, wd string, getenv func(string) string) func(string) string {
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
	_, noCache := pick("no-cache-dir") // any value turns the cache off
	if v := getenv("PIP_CACHE_DIR"); v != "" {
		cache = v
	}
	cache = pipCacheDir(cache, args, wd, getenv)
	return func(k string) string {
		v := getenv(k)
		switch {
		case k == profiles.PipCache:
			v = cache
		case v != "":
		case k == "PIP_NO_CACHE_DIR" && (noCache || slices.Contains(args, "--no-cache-dir")):
			v = "1"
		}
		return v
	}
}

// pipCacheDir is where pip keeps its cache, given cache, its
// PIP_CACHE_DIR or config's cache-dir, or "": a --cache-dir among args
// first, else cache, else platformdirs' XDG_CACHE_HOME/pip (unless blank),
// made absolute as pip does (normalize_path: ~ is home, relative is from
// its working directory wd); "" for ~/.cache/pip.
func pipCacheDir(cache string, args []string, wd string, getenv func(string) string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--cache-dir="); ok {
			cache = v
		} else if a == "--cache-dir" && i+1 < len(args) {
			cache = args[i+1]
		}
	}
	if x := getenv("XDG_CACHE_HOME"); cache == "" && strings.TrimSpace(x) != "" {
		cache = filepath.Join(x, "pip")
	}
	if rest, ok := strings.CutPrefix(cache, "~"); ok && (rest == "" || rest[0] == '/') {
		cache = getenv("HOME") + rest
	}
	if cache == "" || wd == "" && !filepath.IsAbs(cache) {
		return cache
	}
	return filepath.Clean(within(wd, cache))
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
