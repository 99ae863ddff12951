package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// pipConfMax bounds the read of each pip config file (a few lines).
const pipConfMax = 64 << 10

// pipConfEnv is getenv with pip's cache behind profiles.PipCache
// (pipCacheDir) and PIP_NO_CACHE_DIR set exactly when pip runs with its
// cache off: by its config files or environment (no-cache-dir, which
// wins over any cache-dir there, whatever its value: pip turns the cache
// off for PIP_NO_CACHE_DIR=false too), or by its arguments, whose last
// cache option wins over both (pipCacheArgs). A user whose pip.conf puts
// the cache in the workspace, or turns it off, is not told on every
// launch that pip writes ~/.cache/pip. Other tools get getenv as it is.
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
	// install's. pip passes over an empty value.
	pick := func(key string) string {
		if v := merged["install."+key]; v != "" {
			return v
		}
		return merged["global."+key]
	}
	cache, off := pick("cache-dir"), pick("no-cache-dir") != "" || getenv("PIP_NO_CACHE_DIR") != ""
	if v := getenv("PIP_CACHE_DIR"); v != "" {
		cache = v
	}
	if dir, given, argOff := pipCacheArgs(args); given {
		cache, off = dir, argOff
	}
	if !off {
		cache = pipCacheDir(cache, wd, getenv)
	}
	return func(k string) string {
		switch k {
		case profiles.PipCache:
			return cache
		case "PIP_NO_CACHE_DIR":
			if off {
				return "1"
			}
			return ""
		}
		return getenv(k)
	}
}

// pipCacheArgs reads pip's cache options among args as its parser
// (optparse) does, up to a "--": the last of --cache-dir DIR (or =DIR)
// and --no-cache-dir, each also shortened to a prefix of its name, as
// optparse takes any prefix that no other option starts with: from --ca
// and --no-ca on in pip 23 to 25 (--c and --no-c are shared, which pip
// refuses). given tells whether there was one; off, whether it turns the
// cache off (--no-cache-dir, or an empty DIR).
func pipCacheArgs(args []string) (dir string, given, off bool) {
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		switch {
		case len(name) >= len("--no-ca") && strings.HasPrefix("--no-cache-dir", name):
			dir, given, off = "", true, true
		case len(name) >= len("--ca") && strings.HasPrefix("--cache-dir", name):
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
			dir, given, off = value, true, value == ""
		}
	}
	return dir, given, off
}

// pipCacheDir is where pip keeps its cache, given cache, its cache-dir
// as set (pipConfEnv), or "": cache, else platformdirs'
// XDG_CACHE_HOME/pip (unless blank), made absolute as pip does
// (normalize_path: ~ is home, relative is from its working directory
// wd); "" for ~/.cache/pip.
func pipCacheDir(cache string, wd string, getenv func(string) string) string {
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
