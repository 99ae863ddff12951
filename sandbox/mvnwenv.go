package sandbox

import (
	"bytes"
	"path/filepath"
	"strings"
)

// mvnwDists is where a project's Maven wrapper, the script at path run in
// wd with args, unpacks Maven, or "" for ~/.m2/wrapper; byProp: the
// maven.user.home property put it there. The script-only wrapper (3.3
// and later) uses MAVEN_USER_HOME's wrapper/dists, or ~/.m2's. The
// wrappers that run maven-wrapper.jar's MavenWrapperMain (takari's, Apache's
// 3.1 and 3.2, 3.3's other types) take maven.user.home, from their -D
// arguments or MAVEN_OPTS, before MAVEN_USER_HOME, and, in the project's
// .mvn/wrapper/maven-wrapper.properties, distributionBase=PROJECT (the
// working directory instead) and distributionPath.
func mvnwDists(path string, args []string, wd string, getenv func(string) string) (dir string, byProp bool) {
	home := getenv("MAVEN_USER_HOME")
	script, err := readRegular(within(wd, path), false, mavenSettingsMax)
	if err != nil || !bytes.Contains(script, []byte("MavenWrapperMain")) {
		if home == "" {
			return "", false
		}
		return filepath.Clean(within(wd, filepath.Join(home, "wrapper", "dists"))), false
	}
	if v := defineFlag(append(strings.Fields(getenv("MAVEN_OPTS")), args...), "maven.user.home"); v != "" {
		home, byProp = v, true
	}
	props := javaProperties(filepath.Join(mavenBaseDir(args, wd, getenv("MAVEN_BASEDIR")), ".mvn", "wrapper", "maven-wrapper.properties"))
	dists := props["distributionPath"]
	switch {
	case props["distributionBase"] == "PROJECT":
		home, byProp = wd, false
	case home == "" && dists == "":
		return "", false
	case home == "":
		home = filepath.Join(getenv("HOME"), ".m2")
	}
	if dists == "" {
		dists = filepath.Join("wrapper", "dists")
	}
	return filepath.Clean(within(within(wd, home), dists)), byProp
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
