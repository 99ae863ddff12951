package sandbox

import (
	"encoding/xml"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// mavenSettingsMax bounds the read of Maven's user settings file.
const mavenSettingsMax = 1 << 20

// mavenEnv is getenv with Maven's local repository behind
// profiles.MavenRepoLocal, read where Maven reads it: -Dmaven.repo.local
// among mvn's own arguments args (after MAVEN_ARGS, which Maven puts
// before them), then in MAVEN_ARGS, then in MAVEN_OPTS (the JVM's), then
// <localRepository> in ~/.m2/settings.xml. A user who moved it is not
// told on every launch that mvn writes ~/.m2/repository. Other tools get
// getenv as it is.
func mavenEnv(prog *profiles.Program, args []string, getenv func(string) string) func(string) string {
	if prog.Name != "mvn" {
		return getenv
	}
	repo := repoLocalFlag(args)
	if repo == "" {
		repo = repoLocalFlag(strings.Fields(getenv("MAVEN_ARGS")))
	}
	if repo == "" {
		repo = repoLocalFlag(strings.Fields(getenv("MAVEN_OPTS")))
	}
	if home := getenv("HOME"); repo == "" && home != "" {
		repo = settingsRepo(filepath.Join(home, ".m2", "settings.xml"), home)
	}
	return func(k string) string {
		if k == profiles.MavenRepoLocal {
			return repo
		}
		return getenv(k)
	}
}

// repoLocalFlag is the last maven.repo.local among flags, given as
// -Dmaven.repo.local=PATH, or as mvn also takes it, -D or --define then
// maven.repo.local=PATH; or "".
func repoLocalFlag(flags []string) string {
	const prop = "maven.repo.local="
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
	if err != nil {
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
