//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMavenRepoMovedInProject: Maven's local repository moved where
// Maven reads it — relative (from Maven's working directory), quoted
// (Maven 3 keeps the quotes), in another settings file (-s), in the
// project's .mvn/maven.config or .mvn/jvm.config — was read as not
// moved: a launch whose mvn wrote in the project was told that it
// writes ~/.m2/repository, and one that wrote outside the writable set
// was pointed at ~/.m2 rather than the place refused. Real mvn, offline;
// the repository is checked from outside.
func TestMavenRepoMovedInProject(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn is not installed")
	}
	settings := "<settings><localRepository>srepo</localRepository></settings>\n"
	for _, c := range []struct {
		name  string
		files map[string]string // in the project; {p} is its path
		env   []string
		args  []string
		repo  string // where Maven puts it, from the project
		out   bool   // outside the writable set: refused, named
	}{
		{name: "relative", args: []string{"-Dmaven.repo.local=repo"}, repo: "repo"},
		{name: "relative-opts", env: []string{"MAVEN_OPTS=-Dmaven.repo.local=repo"}, repo: "repo"},
		{name: "quoted", env: []string{`MAVEN_OPTS=-Dmaven.repo.local="q"`}, repo: `"q"`},
		{name: "settings", files: map[string]string{"s.xml": settings}, args: []string{"-s", "s.xml"}, repo: "srepo"},
		{name: "maven.config", files: map[string]string{".mvn/maven.config": "-Dmaven.repo.local=crepo\n"}, repo: "crepo"},
		{name: "jvm.config", files: map[string]string{".mvn/jvm.config": "-Xmx256m\n-Dmaven.repo.local={p}/jrepo\n"}, repo: "jrepo"},
		{name: "outside", args: []string{"-Dmaven.repo.local=../orepo"}, repo: "../orepo", out: true},
	} {
		for _, u := range users {
			for _, mode := range confinedModes {
				t.Run(c.name+"/"+u.name+"/"+mode, func(t *testing.T) {
					w, proj, env := mavenWorld(t, u)
					for name, s := range c.files {
						mustMkdir(t, filepath.Dir(filepath.Join(proj, name)))
						writeFile(t, filepath.Join(proj, name), strings.ReplaceAll(s, "{p}", proj))
					}
					chownTree(t, w.extra, u)
					args := append([]string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--", "mvn", "-o", "-q"}, c.args...)
					r := w.runEnv(append(env, c.env...), append(args, "validate")...)
					repo := filepath.Join(proj, c.repo)
					line := stateLine(r.stderr)
					if c.out {
						if r.code == 0 || !strings.Contains(line, "mvn keeps state in "+repo+",") {
							t.Errorf("%+v; want mvn refused and the launch to name %s", r, repo)
						}
						return
					}
					if r.code != 0 || line != "" {
						t.Errorf("%+v; want it run without the state warning", r)
					}
					if _, err := os.Stat(repo); err != nil {
						t.Errorf("Maven's repository is not where it was put: %v", err)
					}
				})
			}
		}
	}
}
