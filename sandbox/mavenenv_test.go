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
		// The JVM's own variables: JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS,
		// the command line, then _JAVA_OPTIONS, the last winning.
		{"java tool options", map[string]string{"JAVA_TOOL_OPTIONS": "-Xss1m -Dmaven.repo.local=/w/t"}, "", nil, "/w/t"},
		{"jdk java options over the tool's", map[string]string{"JAVA_TOOL_OPTIONS": "-Dmaven.repo.local=/w/t", "JDK_JAVA_OPTIONS": "-Dmaven.repo.local=/w/j"}, "", nil, "/w/j"},
		{"opts over java tool options", map[string]string{"JAVA_TOOL_OPTIONS": "-Dmaven.repo.local=/w/t", "MAVEN_OPTS": "-Dmaven.repo.local=/w/o"}, "", nil, "/w/o"},
		{"_JAVA_OPTIONS over opts", map[string]string{"_JAVA_OPTIONS": "-Dmaven.repo.local=/w/u", "MAVEN_OPTS": "-Dmaven.repo.local=/w/o"}, "", nil, "/w/u"},
		{"maven.user.home is not Maven's", map[string]string{"MAVEN_OPTS": "-Dmaven.user.home=/w/h"}, "", nil, ""},
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
		got := mavenEnv(prog, "", c.args, "", func(k string) string { return env[k] })(profiles.MavenRepoLocal)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestMavenArgsByScript: Maven 3.9's script passes MAVEN_ARGS on before
// mvn's arguments, 3.8's (Debian 12's) ignores it: read as the script of
// the Maven run says, through the link to it.
func TestMavenArgsByScript(t *testing.T) {
	dir := t.TempDir()
	prog := profiles.ProgramFor("mvn")
	env := map[string]string{"HOME": dir, "MAVEN_ARGS": "-Dmaven.repo.local=/w/a"}
	for _, c := range []struct {
		name, script, want string
	}{
		{"3.8", "exec \"$JAVACMD\" $MAVEN_OPTS ${CLASSWORLDS_LAUNCHER} \"$@\"\n", ""},
		{"3.9", "exec \"$JAVACMD\" $MAVEN_OPTS ${CLASSWORLDS_LAUNCHER} $MAVEN_ARGS \"$@\"\n", "/w/a"},
	} {
		bin := filepath.Join(dir, c.name, "bin")
		mkdirs(t, bin)
		putFile(t, filepath.Join(bin, "mvn"), c.script)
		link := filepath.Join(dir, c.name, "mvn")
		if err := os.Symlink("bin/mvn", link); err != nil {
			t.Fatal(err)
		}
		if got := mavenEnv(prog, link, nil, "", func(k string) string { return env[k] })(profiles.MavenRepoLocal); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestMavenRepoLocalProject: a relative or quoted maven.repo.local is
// Maven's working directory's (Maven 3 keeps the quotes); -s and -gs
// name other settings files; the project's .mvn/maven.config holds
// arguments and .mvn/jvm.config JVM options, found from -f's directory
// or the working directory up. Each was read as no move at all.
func TestMavenRepoLocalProject(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	sub := filepath.Join(proj, "sub")
	mkdirs(t, filepath.Join(home, ".m2"), filepath.Join(proj, ".mvn"), sub)
	write := func(p, s string) { putFile(t, p, s) }
	settings := func(repo string) string {
		return "<settings><localRepository>" + repo + "</localRepository></settings>"
	}
	write(filepath.Join(proj, "s.xml"), settings("srepo"))
	write(filepath.Join(proj, "g.xml"), settings("/g"))
	write(filepath.Join(home, ".m2", "settings.xml"), "<settings/>")
	prog := profiles.ProgramFor("mvn")
	for _, c := range []struct {
		name, wd, config, jvm string
		env                   map[string]string
		args                  []string
		want                  string
	}{
		{name: "relative", wd: proj, args: []string{"-Dmaven.repo.local=rel"}, want: proj + "/rel"},
		{name: "relative in MAVEN_OPTS", wd: sub, env: map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=../r"}, want: proj + "/r"},
		{name: "quoted: the quotes are kept", wd: proj, env: map[string]string{"MAVEN_OPTS": `-Dmaven.repo.local="/q"`}, want: proj + `/"/q"`},
		{name: "-s", wd: proj, args: []string{"-s", "s.xml", "validate"}, want: proj + "/srepo"},
		{name: "--settings=", wd: sub, args: []string{"--settings=../s.xml"}, want: sub + "/srepo"},
		{name: "-gs", wd: proj, args: []string{"-gs", "g.xml"}, want: "/g"},
		{name: "maven.config", wd: sub, config: "-Dmaven.repo.local=/c\n", want: "/c"},
		{name: "mvn's own -D over maven.config", wd: proj, config: "-Dmaven.repo.local=/c", args: []string{"-Dmaven.repo.local=/a"}, want: "/a"},
		{name: "maven.config's -s", wd: proj, config: "-s s.xml", want: proj + "/srepo"},
		{name: "jvm.config", wd: proj, jvm: "-Xmx1g\n-Dmaven.repo.local=/j\n", want: "/j"},
		{name: "MAVEN_OPTS over jvm.config", wd: proj, jvm: "-Dmaven.repo.local=/j", env: map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=/o"}, want: "/o"},
		{name: "maven.config over jvm.config", wd: proj, jvm: "-Dmaven.repo.local=/j", config: "-Dmaven.repo.local=/c", want: "/c"},
		{name: "-f finds the project", wd: root, config: "-Dmaven.repo.local=/c", args: []string{"-f", "proj/pom.xml"}, want: "/c"},
		{name: "MAVEN_BASEDIR", wd: root, config: "-Dmaven.repo.local=/c", env: map[string]string{"MAVEN_BASEDIR": proj}, want: "/c"},
		{name: "no project above", wd: root, config: "-Dmaven.repo.local=/c", want: ""},
	} {
		write(filepath.Join(proj, ".mvn", "maven.config"), c.config)
		write(filepath.Join(proj, ".mvn", "jvm.config"), c.jvm)
		env := map[string]string{"HOME": home}
		for k, v := range c.env {
			env[k] = v
		}
		got := mavenEnv(prog, "", c.args, c.wd, func(k string) string { return env[k] })(profiles.MavenRepoLocal)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHasElement: an element is looked for outside XML comments only.
func TestHasElement(t *testing.T) {
	for s, want := range map[string]bool{
		"<s><localRepository>/r</localRepository></s>":                 true,
		"<s><!-- <localRepository>/r</localRepository> --></s>":        false,
		"<!-- a --><s><!-- b --><localRepository>/r</localRepository>": true,
		"<s><!-- <localRepository> unclosed":                           false,
		"<s/>":                                                         false,
	} {
		if got := hasElement([]byte(s), "<localRepository"); got != want {
			t.Errorf("hasElement(%q) = %v, want %v", s, got, want)
		}
	}
}

// mkdirs makes each of dirs, 0700, with its parents.
func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
}

// putFile makes p hold s (0600), or removes it when s is "".
func putFile(t *testing.T, p, s string) {
	t.Helper()
	os.Remove(p)
	if s != "" {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
