//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMavenWrapperStateSaid: a project's Maven wrapper (mvnw) downloads
// Maven into ~/.m2/wrapper before it runs it; confined, it stopped there
// and the launch named nothing (mvnw is not mvn). The stand-in does what
// mvnw does, offline: it "downloads" this machine's Maven into
// MAVEN_USER_HOME's wrapper/dists (a copy) and runs that copy, real
// Maven, which writes the local repository. The launch names both places
// and MAVEN_USER_HOME; the hint's flags, pasted, let it work without the
// warning.
func TestMavenWrapperStateSaid(t *testing.T) {
	if _, err := os.Stat("/usr/share/maven/bin/mvn"); err != nil {
		t.Skip("Maven is not installed in /usr/share/maven")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, env := mavenWorld(t, u)
				mvnw := filepath.Join(proj, "mvnw")
				writeExec(t, mvnw, scriptOnlyMvnw)
				chownTree(t, w.extra, u)
				base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj}
				run := []string{"--", "./mvnw", "-o", "-q", "validate"}
				r := w.runEnv(env, append(base, run...)...)
				line := stateLine(r.stderr)
				m2 := filepath.Join(w.home, ".m2")
				if r.code == 0 || !strings.Contains(line, "mvnw keeps state in "+m2+"/wrapper, "+m2+"/repository") ||
					!strings.Contains(line, "--setenv MAVEN_USER_HOME=") || !strings.Contains(line, "--setenv MAVEN_OPTS=-Dmaven.repo.local=") {
					t.Fatalf("%+v; want mvnw refused and the launch to name ~/.m2/wrapper, ~/.m2/repository and both variables", r)
				}
				r = w.runEnv(env, append(append(base, pastedFlags(line)...), run...)...)
				if r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("with the hint's flags %q: %+v; want it to work, without the warning", pastedFlags(line), r)
				}
				for _, d := range []string{"wrapper/dists", "repository"} {
					if _, err := os.Stat(filepath.Join(w.dataDir, "workspace", ".m2", d)); err != nil {
						t.Errorf("the workspace's .m2/%s: %v", d, err)
					}
				}
			})
		}
	}
}

// scriptOnlyMvnw stands for the script-only Maven wrapper (3.3 and
// later): it unpacks Maven (a copy of this machine's) into
// MAVEN_USER_HOME's wrapper/dists, or ~/.m2's, and runs it.
const scriptOnlyMvnw = `#!/bin/sh
set -e
d="${MAVEN_USER_HOME:-$HOME/.m2}/wrapper/dists/apache-maven-3/x"
if [ ! -d "$d" ]; then mkdir -p "${d%/*}"; cp -rL /usr/share/maven "$d"; fi
exec "$d/bin/mvn" "$@"
`

// jarMvnw stands for the Maven wrappers that run maven-wrapper.jar
// (WRAPPER_LAUNCHER=org.apache.maven.wrapper.MavenWrapperMain: takari's,
// Apache's 3.1 and 3.2), doing what the jar does, as seen with Apache's
// 3.2.0 built from its source: Maven goes into the maven.user.home
// property's wrapper/dists (-D in MAVEN_OPTS or the arguments), else
// MAVEN_USER_HOME's, else ~/.m2's; distributionBase=PROJECT in
// .mvn/wrapper/maven-wrapper.properties puts it in the working
// directory instead, and distributionPath replaces wrapper/dists. Its
// download goes where zipStoreBase and zipStorePath say, alike.
const jarMvnw = `#!/bin/sh
# WRAPPER_LAUNCHER=org.apache.maven.wrapper.MavenWrapperMain
set -e
home="${MAVEN_USER_HOME:-$HOME/.m2}"
for a in $MAVEN_OPTS "$@"; do
  case "$a" in -Dmaven.user.home=*) home="${a#-Dmaven.user.home=}" ;; esac
done
place() {
  base=$(sed -n "s/^$1=//p" .mvn/wrapper/maven-wrapper.properties)
  path=$(sed -n "s/^$2=//p" .mvn/wrapper/maven-wrapper.properties)
  if [ "$base" = PROJECT ]; then echo "$PWD/${path:-wrapper/dists}"; else echo "$home/${path:-wrapper/dists}"; fi
}
d="$(place distributionBase distributionPath)/apache-maven-3/x/maven"
if [ ! -d "$d" ]; then
  z="$(place zipStoreBase zipStorePath)/apache-maven-3/x"
  mkdir -p "$z" "${d%/*}"
  : >"$z/maven.zip"
  cp -rL /usr/share/maven "$d"
fi
exec "$d/bin/mvn" "$@"
`

// TestMavenWrapperPlaces: the wrappers that run maven-wrapper.jar put
// Maven where the maven.user.home property or the project's
// maven-wrapper.properties say (jarMvnw); the launch named
// ~/.m2/wrapper whatever they said: a wrapper that unpacked Maven in the
// project was warned about, and one whose maven.user.home lay outside the
// writable set was pointed at MAVEN_USER_HOME, which it does not read
// then; one unpacking Maven in the project but downloading it into
// ~/.m2 (zipStoreBase left as it is) must be told of that. The
// script-only wrapper reads neither, and is told of ~/.m2.
func TestMavenWrapperPlaces(t *testing.T) {
	if _, err := os.Stat("/usr/share/maven/bin/mvn"); err != nil {
		t.Skip("Maven is not installed in /usr/share/maven")
	}
	for _, c := range []struct {
		name, script, props string
		opts                string // MAVEN_OPTS; {p} is the project, {o} a directory outside
		named               string // in the warning; "": none
		hint                string // and its fix
	}{
		{name: "project", script: jarMvnw, props: "distributionBase=PROJECT\ndistributionPath=.mvn/dists\nzipStoreBase=PROJECT\nzipStorePath=.mvn/dists\n", opts: "-Dmaven.repo.local={p}/repo"},
		{name: "project-download-home", script: jarMvnw, props: "distributionBase=PROJECT\ndistributionPath=.mvn/dists\n", opts: "-Dmaven.repo.local={p}/repo",
			named: "{h}/.m2/wrapper/dists", hint: "--setenv MAVEN_USER_HOME="},
		{name: "property", script: jarMvnw, opts: "-Dmaven.user.home={o} -Dmaven.repo.local={p}/repo", named: "{o}/wrapper/dists", hint: "-Dmaven.user.home"},
		{name: "script-only", script: scriptOnlyMvnw, props: "distributionBase=PROJECT\n", opts: "-Dmaven.user.home={o} -Dmaven.repo.local={p}/repo", named: "{h}/.m2/wrapper", hint: "--setenv MAVEN_USER_HOME="},
	} {
		for _, u := range users {
			for _, mode := range confinedModes {
				t.Run(c.name+"/"+u.name+"/"+mode, func(t *testing.T) {
					w, proj, env := mavenWorld(t, u)
					writeExec(t, filepath.Join(proj, "mvnw"), c.script)
					mustMkdir(t, filepath.Join(proj, ".mvn", "wrapper"))
					writeFile(t, filepath.Join(proj, ".mvn", "wrapper", "maven-wrapper.properties"), "distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.8.7/apache-maven-3.8.7-bin.zip\n"+c.props)
					chownTree(t, w.extra, u)
					put := strings.NewReplacer("{p}", proj, "{o}", filepath.Join(w.outside, "muh"), "{h}", w.home).Replace
					r := w.runEnv(append(env, "MAVEN_OPTS="+put(c.opts)), "--mode", mode, "--allow-write", proj, "--workdir", proj, "--", "./mvnw", "-o", "-q", "validate")
					line := stateLine(r.stderr)
					if c.named == "" {
						if _, err := os.Stat(filepath.Join(proj, ".mvn", "dists")); r.code != 0 || line != "" || err != nil {
							t.Errorf("%+v, %v; want Maven unpacked in the project and run, unwarned", r, err)
						}
						return
					}
					if r.code == 0 || !strings.Contains(line, "mvnw keeps state in "+put(c.named)+",") || strings.Contains(line, "/repository") || !strings.Contains(line, c.hint) {
						t.Errorf("%+v; want the wrapper refused and the launch to name %s alone, and %s", r, put(c.named), c.hint)
					}
					if c.name == "project-download-home" {
						r = w.runEnv(append(env, "MAVEN_OPTS="+put(c.opts)), append(append([]string{"--mode", mode, "--allow-write", proj, "--workdir", proj}, pastedFlags(line)...), "--", "./mvnw", "-o", "-q", "validate")...)
						if r.code != 0 || stateLine(r.stderr) != "" {
							t.Errorf("with the hint's flags %q: %+v; want it to work, without the warning", pastedFlags(line), r)
						}
					}
				})
			}
		}
	}
}
