package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestMavenRepoLocal: Maven's local repository is read where Maven reads
// it, so that a user who moved it is not told on every launch that mvn
// writes ~/.m2/repository: -Dmaven.repo.local in MAVEN_ARGS, then in
// MAVEN_OPTS, then <localRepository> in ~/.m2/settings.xml (not one in a
// comment, as Maven's example settings file has); mvn's own -D before
// all of them.
func TestMavenRepoLocal(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".m2", "settings.xml")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	prog := profiles.ProgramFor("mvn")
	for _, c := range []struct {
		name     string
		env      map[string]string
		settings string
		args     []string // mvn's own
		want     string
	}{
		{"none", nil, "", nil, ""},
		{"opts", map[string]string{"MAVEN_OPTS": "-Xmx1g -Dmaven.repo.local=/w/repo"}, "", nil, "/w/repo"},
		{"args win", map[string]string{"MAVEN_ARGS": "-Dmaven.repo.local=/w/a", "MAVEN_OPTS": "-Dmaven.repo.local=/w/o"}, "", nil, "/w/a"},
		{"settings", nil, "<settings><localRepository>${user.home}/m2</localRepository></settings>", nil, home + "/m2"},
		{"commented", nil, "<settings><!-- <localRepository>/path/to/local/repo</localRepository> --></settings>", nil, ""},
		{"opts over settings", map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=/w/o"}, "<settings><localRepository>/s</localRepository></settings>", nil, "/w/o"},
		// mvn's own arguments follow MAVEN_ARGS: they win.
		{"args", map[string]string{"MAVEN_ARGS": "-Dmaven.repo.local=/w/a"}, "", []string{"-q", "-Dmaven.repo.local=/w/c", "validate"}, "/w/c"},
		{"args, -D apart", nil, "<settings><localRepository>/s</localRepository></settings>", []string{"-D", "maven.repo.local=/w/c", "validate"}, "/w/c"},
		{"args, --define", nil, "", []string{"--define", "maven.repo.local=/w/c"}, "/w/c"},
		{"args, another property", map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=/w/o"}, "", []string{"-Dx=1", "-D", "y=2"}, "/w/o"},
	} {
		os.Remove(settings)
		if c.settings != "" {
			if err := os.WriteFile(settings, []byte(c.settings), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		env := map[string]string{"HOME": home}
		for k, v := range c.env {
			env[k] = v
		}
		got := mavenEnv(prog, c.args, func(k string) string { return env[k] })(profiles.MavenRepoLocal)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
