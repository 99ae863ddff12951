//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMavenRepoMovedInProject: Maven's local repository moved where
// Maven reads it — relative (from Maven's working directory), quoted
// (Maven 3 keeps the quotes), in another settings file (-s), in the
// project's .mvn/maven.config or .mvn/jvm.config, in Maven's global
// settings, in MAVEN_OPTS as ~/.mavenrc sets it — was read as not moved: a launch whose mvn wrote in the project was told that it
// writes ~/.m2/repository, and one that wrote outside the writable set
// was pointed at ~/.m2 rather than the place refused; so was one in
// JAVA_TOOL_OPTIONS, which the JVM takes before MAVEN_OPTS; and one in
// MAVEN_ARGS was read as moved though Maven 3.8's script (this
// machine's) ignores it: mvn failed in ~/.m2/repository and the launch
// said nothing. Real mvn, offline (for 3.9, a copy whose script passes
// MAVEN_ARGS on, as 3.9's does); the repository is checked from outside.
//
// What is read does not depend on the user or the mode, but the
// launch's working directory (relative), the refusal (outside) and the
// reading of a file as the user (mavenrc) may: those run for both users
// in both modes, each other case once, the users and modes taken in
// turn, and the cases side by side (each JVM takes seconds; 44 runs one
// after the other took 80 s of the suite).
func TestMavenRepoMovedInProject(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn is not installed")
	}
	settings := "<settings><localRepository>srepo</localRepository></settings>\n"
	for i, c := range []struct {
		name  string
		files map[string]string // in the project; {p} is its path
		home  map[string]string // in home, as files
		// global: the global settings of a copy of this machine's
		// Maven, run by a link to its bin/mvn, as Debian's /usr/bin/mvn
		global string
		env    []string // NAME+=VALUE adds to mavenWorld's
		args   []string
		// maven39: the copy's script passes MAVEN_ARGS on, as Maven
		// 3.9's does (this machine's 3.8.7 ignores it)
		maven39 bool
		repo    string // where Maven puts it, from the project (~/: home)
		out     bool   // outside the writable set: refused, named
		every   bool   // for both users in both modes
	}{
		{name: "relative", args: []string{"-Dmaven.repo.local=repo"}, repo: "repo", every: true},
		{name: "relative-opts", env: []string{"MAVEN_OPTS=-Dmaven.repo.local=repo"}, repo: "repo"},
		{name: "quoted", env: []string{`MAVEN_OPTS=-Dmaven.repo.local="q"`}, repo: `"q"`},
		{name: "settings", files: map[string]string{"s.xml": settings}, args: []string{"-s", "s.xml"}, repo: "srepo"},
		{name: "maven.config", files: map[string]string{".mvn/maven.config": "-Dmaven.repo.local=crepo\n"}, repo: "crepo"},
		{name: "jvm.config", files: map[string]string{".mvn/jvm.config": "-Xmx256m\n-Dmaven.repo.local={p}/jrepo\n"}, repo: "jrepo"},
		{name: "outside", args: []string{"-Dmaven.repo.local=../orepo"}, repo: "../orepo", out: true, every: true},
		{name: "global-settings", global: "<settings><localRepository>{p}/grepo</localRepository></settings>\n", repo: "grepo"},
		{name: "global-settings-outside", global: "<settings><localRepository>{p}/../grepo</localRepository></settings>\n", repo: "../grepo", out: true},
		{name: "mavenrc", home: map[string]string{".mavenrc": "# Maven's options\nREPO={p}/rcrepo\nif true; then\n  export MAVEN_OPTS=\"$MAVEN_OPTS -Dmaven.repo.local=$REPO\"\nfi\n"},
			env: []string{"MAVEN_OPTS=-Xmx256m"}, repo: "rcrepo", every: true},
		{name: "mavenrc-skipped", home: map[string]string{".mavenrc": "MAVEN_OPTS=-Dmaven.repo.local={p}/rcrepo\n"},
			env: []string{"MAVEN_SKIP_RC=1", "MAVEN_OPTS=-Dmaven.repo.local=../orepo"}, repo: "../orepo", out: true},
		// The JVM takes JAVA_TOOL_OPTIONS before MAVEN_OPTS.
		{name: "java-tool-options", env: []string{"JAVA_TOOL_OPTIONS+= -Dmaven.repo.local={p}/trepo"}, repo: "trepo"},
		{name: "maven-args-3.8", env: []string{"MAVEN_ARGS=-Dmaven.repo.local={p}/arepo"}, repo: "~/.m2/repository", out: true},
		{name: "maven-args-3.9", global: "<settings/>\n", maven39: true, env: []string{"MAVEN_ARGS=-Dmaven.repo.local={p}/arepo"}, repo: "arepo"},
	} {
		k := -1 // the user and mode, 0 to 3
		for _, u := range users {
			for _, mode := range confinedModes {
				if k++; !c.every && k != i%(len(users)*len(confinedModes)) {
					continue
				}
				t.Run(c.name+"/"+u.name+"/"+mode, func(t *testing.T) {
					t.Parallel()
					w, proj, env := mavenWorld(t, u)
					for name, s := range c.files {
						mustMkdir(t, filepath.Dir(filepath.Join(proj, name)))
						writeFile(t, filepath.Join(proj, name), strings.ReplaceAll(s, "{p}", proj))
					}
					for name, s := range c.home {
						writeFile(t, filepath.Join(w.home, name), strings.ReplaceAll(s, "{p}", proj))
					}
					mvn := "mvn"
					if c.global != "" {
						mvn = ownMaven(t, w.extra, strings.ReplaceAll(c.global, "{p}", proj))
					}
					if c.maven39 {
						script := filepath.Join(w.extra, "maven", "bin", "mvn")
						data, err := os.ReadFile(script)
						if err != nil || !strings.Contains(string(data), `${CLASSWORLDS_LAUNCHER} "$@"`) {
							t.Fatalf("Maven's script: %v; want its launcher line", err)
						}
						writeExec(t, script, strings.Replace(string(data), `${CLASSWORLDS_LAUNCHER} "$@"`, `${CLASSWORLDS_LAUNCHER} $MAVEN_ARGS "$@"`, 1))
					}
					chownTree(t, w.extra, u)
					for _, e := range c.env {
						e = strings.ReplaceAll(e, "{p}", proj)
						if name, v, ok := strings.Cut(e, "+="); ok {
							i := slices.IndexFunc(env, func(s string) bool { return strings.HasPrefix(s, name+"=") })
							env[i] += v
							continue
						}
						env = append(env, e)
					}
					args := append([]string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--", mvn, "-o", "-q"}, c.args...)
					r := w.runEnv(env, append(args, "validate")...)
					repo := filepath.Join(proj, c.repo)
					if rest, ok := strings.CutPrefix(c.repo, "~/"); ok {
						repo = filepath.Join(w.home, rest)
					}
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

// ownMaven copies this machine's Maven into dir/maven with global
// settings of its own, and returns a link to its bin/mvn in dir/bin:
// Maven's script finds its home (and conf) through the link, as through
// Debian's /usr/bin/mvn.
func ownMaven(t *testing.T, dir, settings string) string {
	t.Helper()
	home := filepath.Join(dir, "maven")
	if out, err := exec.Command("cp", "-rL", "/usr/share/maven", home).CombinedOutput(); err != nil {
		t.Fatalf("copying Maven: %v: %s", err, out)
	}
	writeFile(t, filepath.Join(home, "conf", "settings.xml"), settings)
	mustMkdir(t, filepath.Join(dir, "bin"))
	link := filepath.Join(dir, "bin", "mvn")
	if err := os.Symlink("../maven/bin/mvn", link); err != nil {
		t.Fatal(err)
	}
	return link
}
