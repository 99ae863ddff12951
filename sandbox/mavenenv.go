package sandbox

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// mavenSettingsMax bounds the read of Maven's settings and config files.
const mavenSettingsMax = 1 << 20

// mavenEnv is getenv with Maven's local repository behind
// profiles.MavenRepoLocal (mavenRepo), for mvn and mvnw (at path) run in
// wd with args, their mavenrc files read (mavenRCEnv): a user who moved
// it is not told on every launch that mvn writes ~/.m2/repository. Other
// tools get getenv as it is.
func mavenEnv(prog *profiles.Program, path string, args []string, wd string, getenv func(string) string) func(string) string {
	if prog.Name != "mvn" && prog.Name != "mvnw" {
		return getenv
	}
	global, mavenArgs := "", true
	var dists, zips mvnwPlace
	rc := mavenRCEnv(getenv)
	if prog.Name == "mvn" {
		global, mavenArgs = mavenScript(path, rc("MAVEN_ARGS") != "")
	} else {
		dists, zips = mvnwPlaces(path, args, wd, rc)
	}
	repo := mavenRepo(args, wd, global, mavenArgs, rc)
	return func(k string) string {
		switch k {
		case profiles.MavenRepoLocal:
			return repo
		case profiles.MvnwDists, profiles.MvnwDistsByProperty:
			return dists.as(k == profiles.MvnwDistsByProperty)
		case profiles.MvnwZips, profiles.MvnwZipsByProperty:
			return zips.as(k == profiles.MvnwZipsByProperty)
		}
		return getenv(k)
	}
}

// as is p's directory when byProp tells how it was put there, else "".
func (p mvnwPlace) as(byProp bool) string {
	if p.byProp != byProp {
		return ""
	}
	return p.dir
}

// mavenRepo is Maven's local repository, read where Maven reads it, or
// "" for its default: -Dmaven.repo.local among mvn's arguments, which
// follow MAVEN_ARGS when mavenArgs (Maven 3.9's script and later's pass
// it on), which follow the project's .mvn/maven.config; then in the
// JVM's options (javaOptions), MAVEN_OPTS after .mvn/jvm.config; then
// <localRepository> in the user settings (-s, or ~/.m2/settings.xml),
// then in the global ones (-gs, or global, Maven's own). Maven takes a
// relative path, and a quoted one (it keeps the quotes), from its
// working directory wd.
func mavenRepo(args []string, wd, global string, mavenArgs bool, getenv func(string) string) string {
	base := mavenBaseDir(args, wd, getenv("MAVEN_BASEDIR"))
	cli := configWords(filepath.Join(base, ".mvn", "maven.config"))
	if mavenArgs {
		cli = append(cli, strings.Fields(getenv("MAVEN_ARGS"))...)
	}
	cli = append(cli, args...)
	repo := repoLocalFlag(cli)
	if repo == "" {
		repo = repoLocalFlag(javaOptions(append(configWords(filepath.Join(base, ".mvn", "jvm.config")), strings.Fields(getenv("MAVEN_OPTS"))...), getenv))
	}
	home := getenv("HOME")
	if settings := optionValue(cli, "-s", "--settings"); repo == "" && settings != "" {
		repo = settingsRepo(within(wd, settings), home)
	} else if repo == "" && home != "" {
		repo = settingsRepo(filepath.Join(home, ".m2", "settings.xml"), home)
	}
	if gs := optionValue(cli, "-gs", "--global-settings"); gs != "" {
		global = within(wd, gs)
	}
	if repo == "" && global != "" {
		repo = settingsRepo(global, home)
	}
	if repo == "" {
		return ""
	}
	return filepath.Clean(within(wd, repo))
}

// javaOptions are the options of a JVM started with flags on its
// command line, in the order it takes them, the last winning:
// JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS (Java 9's launcher and later),
// flags, _JAVA_OPTIONS (checked with Debian's Java 17 and Maven 3.8.7:
// -Dmaven.repo.local in each moves the repository).
func javaOptions(flags []string, getenv func(string) string) []string {
	opts := append(strings.Fields(getenv("JAVA_TOOL_OPTIONS")), strings.Fields(getenv("JDK_JAVA_OPTIONS"))...)
	return append(append(opts, flags...), strings.Fields(getenv("_JAVA_OPTIONS"))...)
}

// mavenScript reads the script of the Maven at path, found through the
// links to it (Debian's /usr/bin/mvn), as the script finds its home:
// global is conf/settings.xml in that home, or ""; mavenArgs tells
// whether the script passes MAVEN_ARGS on (Maven 3.9's and later; 3.8's
// ignores it), or cannot be read, looked at only when readArgs (a read
// of it took 0.05 ms here).
func mavenScript(path string, readArgs bool) (global string, mavenArgs bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !filepath.IsAbs(real) {
		return "", true
	}
	global = filepath.Join(filepath.Dir(filepath.Dir(real)), "conf", "settings.xml")
	if !readArgs {
		return global, true
	}
	script, err := readRegular(real, false, mavenSettingsMax)
	return global, err != nil || bytes.Contains(script, []byte("MAVEN_ARGS"))
}

// within is p taken from dir, as Java takes a relative File from its
// working directory; p as it is when dir is unknown.
func within(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// mavenBaseDir is the project's base directory as mvn's script finds it,
// where .mvn holds its config files: MAVEN_BASEDIR, or the nearest
// directory holding .mvn, from -f's directory (or wd) up.
func mavenBaseDir(args []string, wd, env string) string {
	if env != "" {
		return env
	}
	start := wd
	if f := optionValue(args, "-f", "--file"); f != "" {
		f = within(wd, f)
		if !isDirFollow(f) {
			f = filepath.Dir(f)
		}
		start = f
	}
	for d := start; d != "/" && d != "." && d != ""; d = filepath.Dir(d) {
		if isDirFollow(filepath.Join(d, ".mvn")) {
			return d
		}
	}
	return start
}

// configWords are the words of a config file of Maven's (.mvn/maven.config,
// .mvn/jvm.config), split at white space as Maven 3.8's script and
// launcher split them; none when it is missing or not a regular file.
func configWords(file string) []string {
	data, err := readRegular(file, false, mavenSettingsMax)
	if err != nil {
		return nil
	}
	return strings.Fields(string(data))
}

// optionValue is the value of the last of mvn's options named short or
// long among words (-s FILE, --settings FILE, --settings=FILE), or "".
func optionValue(words []string, short, long string) string {
	v := ""
	for i, w := range words {
		if p, ok := strings.CutPrefix(w, long+"="); ok {
			v = p
		} else if (w == short || w == long) && i+1 < len(words) {
			v = words[i+1]
		}
	}
	return v
}

// repoLocalFlag is the last maven.repo.local among flags (defineFlag).
func repoLocalFlag(flags []string) string {
	return defineFlag(flags, "maven.repo.local")
}

// defineFlag is the last value of the Java property name among flags,
// given as -Dname=VALUE, or as mvn also takes it, -D or --define then
// name=VALUE; or "".
func defineFlag(flags []string, name string) string {
	prop := name + "="
	v := ""
	for i, f := range flags {
		if p, ok := strings.CutPrefix(f, "-D"+prop); ok {
			v = p
		} else if p, ok := strings.CutPrefix(f, "--define="+prop); ok {
			v = p
		} else if (f == "-D" || f == "--define") && i+1 < len(flags) && strings.HasPrefix(flags[i+1], prop) {
			v = strings.TrimPrefix(flags[i+1], prop)
		}
	}
	return v
}

// settingsRepo is the localRepository of a Maven settings file, with
// ${user.home} put in, or "" (none, unreadable, another property in it).
func settingsRepo(file, home string) string {
	data, err := readRegular(file, false, mavenSettingsMax)
	if err != nil || !hasElement(data, "<localRepository") {
		return ""
	}
	var s struct {
		LocalRepository string `xml:"localRepository"`
	}
	if xml.Unmarshal(data, &s) != nil {
		return ""
	}
	repo := strings.ReplaceAll(strings.TrimSpace(s.LocalRepository), "${user.home}", home)
	if strings.Contains(repo, "${") {
		return ""
	}
	return repo
}

// hasElement tells whether tag (as "<name") stands in XML data outside
// its comments: a cheap look before decoding it all (Maven's own
// settings.xml, 10 kB of comments, took 0.35 ms to decode).
func hasElement(data []byte, tag string) bool {
	for len(data) > 0 {
		c := bytes.Index(data, []byte("<!--"))
		if c < 0 {
			c = len(data)
		}
		if bytes.Contains(data[:c], []byte(tag)) {
			return true
		}
		end := bytes.Index(data[c:], []byte("-->"))
		if end < 0 {
			return false
		}
		data = data[c+end+3:]
	}
	return false
}

// isDirFollow tells whether p is a directory, through symlinks, as the
// shell's test -d does.
func isDirFollow(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
