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
				writeFile(t, mvnw, "#!/bin/sh\nset -e\nd=\"${MAVEN_USER_HOME:-$HOME/.m2}/wrapper/dists/apache-maven-3/x\"\n"+
					"if [ ! -d \"$d\" ]; then mkdir -p \"${d%/*}\"; cp -rL /usr/share/maven \"$d\"; fi\nexec \"$d/bin/mvn\" \"$@\"\n")
				os.Chmod(mvnw, 0o755)
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
