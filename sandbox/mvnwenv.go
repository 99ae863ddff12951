package sandbox

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// mvnwPlace is a directory the Maven wrapper writes, and whether the
// maven.user.home property put it there ("": where the State entry
// .m2/wrapper says).
type mvnwPlace struct {
	dir    string
	byProp bool
}

// mvnwPlaces are where a project's Maven wrapper, the script at path run
// in wd with args, unpacks Maven and keeps its download. The script-only
// wrapper (3.3 and later) unpacks into MAVEN_USER_HOME's wrapper/dists,
// or ~/.m2's, and downloads into a temporary directory. The wrappers that
// run maven-wrapper.jar's MavenWrapperMain (takari's, Apache's 3.1 and
// 3.2, 3.3's other types) take maven.user.home, from their -D arguments
// or the JVM's options (javaOptions), before MAVEN_USER_HOME, and read the project's
// .mvn/wrapper/maven-wrapper.properties: distributionBase=PROJECT (the
// working directory instead) and distributionPath for Maven,
// zipStoreBase and zipStorePath for its download.
func mvnwPlaces(path string, args []string, wd string, getenv func(string) string) (dists, zips mvnwPlace) {
	home := getenv("MAVEN_USER_HOME")
	script, err := readRegular(within(wd, path), false, mavenSettingsMax)
	if err != nil || !bytes.Contains(script, []byte("MavenWrapperMain")) {
		if home == "" {
			return mvnwPlace{}, mvnwPlace{}
		}
		return mvnwPlace{dir: filepath.Clean(within(wd, filepath.Join(home, "wrapper", "dists")))}, mvnwPlace{}
	}
	byProp := false
	if v := defineFlag(append(javaOptions(strings.Fields(getenv("MAVEN_OPTS")), getenv), args...), "maven.user.home"); v != "" {
		home, byProp = v, true
	}
	if home == "" {
		home = filepath.Join(getenv("HOME"), ".m2")
	}
	props := javaProperties(filepath.Join(mavenBaseDir(args, wd, getenv("MAVEN_BASEDIR")), ".mvn", "wrapper", "maven-wrapper.properties"))
	place := func(baseKey, pathKey string) mvnwPlace {
		p := mvnwPlace{dir: within(wd, home), byProp: byProp}
		if props[baseKey] == "PROJECT" {
			p = mvnwPlace{dir: wd}
		}
		rel := props[pathKey]
		if rel == "" {
			rel = filepath.Join("wrapper", "dists")
		}
		p.dir = filepath.Clean(within(p.dir, rel))
		return p
	}
	dists, zips = place("distributionBase", "distributionPath"), place("zipStoreBase", "zipStorePath")
	wrapper := filepath.Join(getenv("HOME"), ".m2", "wrapper")
	if !dists.byProp && profiles.Within(dists.dir, wrapper) {
		dists = mvnwPlace{}
	}
	if zips.dir == dists.dir || dists.dir == "" && !zips.byProp && profiles.Within(zips.dir, wrapper) {
		zips = mvnwPlace{}
	}
	return dists, zips
}

// javaProperties reads the key=value (or key: value) lines of a Java
// properties file, passing over comments; none when it is missing or not
// a regular file. Escapes and continued lines are not read.
func javaProperties(file string) map[string]string {
	data, err := readRegular(file, false, mavenSettingsMax)
	props := map[string]string{}
	if err != nil {
		return props
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		if i := strings.IndexAny(line, "=:"); i > 0 {
			props[strings.TrimSpace(line[:i])] = strings.TrimSpace(line[i+1:])
		}
	}
	return props
}
