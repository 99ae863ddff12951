package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestMavenRepoGlobalAndRC: Maven's global settings (conf/settings.xml
// in the home of the Maven run, found through a link to its script, as
// Debian's /usr/bin/mvn) and the mavenrc files mvn's script sources
// (MAVEN_OPTS set there) move the local repository too; neither was read.
func TestMavenRepoGlobalAndRC(t *testing.T) {
	root := t.TempDir()
	home, etc := filepath.Join(root, "home"), filepath.Join(root, "etc")
	mkdirs(t, filepath.Join(home, ".m2"), filepath.Join(root, "maven", "bin"), filepath.Join(root, "maven", "conf"), filepath.Join(root, "bin"), etc)
	write := func(p, s string) { putFile(t, p, s) }
	write(filepath.Join(root, "maven", "bin", "mvn"), "#!/bin/sh\n")
	write(filepath.Join(root, "maven", "conf", "settings.xml"), "<settings><localRepository>/global</localRepository></settings>")
	write(filepath.Join(root, "g.xml"), "<settings><localRepository>/gs</localRepository></settings>")
	link := filepath.Join(root, "bin", "mvn")
	if err := os.Symlink("../maven/bin/mvn", link); err != nil {
		t.Fatal(err)
	}
	defer func(files []string) { mavenRCFiles = files }(mavenRCFiles)
	mavenRCFiles = []string{filepath.Join(etc, "mavenrc"), "~/.mavenrc"}
	for _, c := range []struct {
		name, prog, path, user, etcRC, homeRC string
		env                                   map[string]string
		args                                  []string
		want                                  string
	}{
		{name: "global", path: link, want: "/global"},
		{name: "user settings over global", path: link, user: "<settings><localRepository>/user</localRepository></settings>", want: "/user"},
		{name: "-gs over Maven's own", path: link, args: []string{"-gs", root + "/g.xml"}, want: "/gs"},
		{name: "mvnw: its own Maven's are unknown", prog: "mvnw", path: link, want: ""},
		{name: "/etc/mavenrc", etcRC: "MAVEN_OPTS=-Dmaven.repo.local=/etc-rc\n", want: "/etc-rc"},
		{name: "~/.mavenrc after /etc/mavenrc", etcRC: "MAVEN_OPTS=-Dmaven.repo.local=/etc-rc\n",
			homeRC: "if [ -d /x ]; then\n  export MAVEN_OPTS=\"$MAVEN_OPTS -Dmaven.repo.local=${HOME}/rc\" # mine\nfi\n", want: home + "/rc"},
		{name: "the rc's own variable", homeRC: "R='/r c'\nMAVEN_OPTS=\"-Dmaven.repo.local=$R\"\n", want: "/r"},
		{name: "the rc replaces MAVEN_OPTS", env: map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=/env"}, homeRC: "MAVEN_OPTS=-Xmx1g\n", user: "<settings/>", want: ""},
		{name: "the rc appends to MAVEN_OPTS", env: map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=/env"}, homeRC: "MAVEN_OPTS=\"$MAVEN_OPTS -Xmx1g\"\n", want: "/env"},
		{name: "MAVEN_SKIP_RC", env: map[string]string{"MAVEN_SKIP_RC": "1"}, homeRC: "MAVEN_OPTS=-Dmaven.repo.local=/rc\n", want: ""},
		{name: "a command's value is not read", homeRC: "MAVEN_OPTS=\"-Dmaven.repo.local=$(cat /f)\"\n", want: ""},
		{name: "a variable set for one command", homeRC: "MAVEN_OPTS=-Dmaven.repo.local=/rc true\n", want: ""},
	} {
		write(filepath.Join(home, ".m2", "settings.xml"), c.user)
		write(filepath.Join(etc, "mavenrc"), c.etcRC)
		write(filepath.Join(home, ".mavenrc"), c.homeRC)
		env := map[string]string{"HOME": home}
		for k, v := range c.env {
			env[k] = v
		}
		name := c.prog
		if name == "" {
			name = "mvn"
		}
		got := mavenEnv(profiles.ProgramFor(name), c.path, c.args, root, func(k string) string { return env[k] })(profiles.MavenRepoLocal)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestShellAssignment: the plain assignments of an rc file, expanded as
// the shell expands them; anything else is not one.
func TestShellAssignment(t *testing.T) {
	vars := map[string]string{"A": "a b", "HOME": "/h"}
	get := func(k string) string { return vars[k] }
	for _, c := range []struct {
		line, name, value string
		ok                bool
	}{
		{"X=1", "X", "1", true},
		{"  export X=\"$A -D\" ; echo", "X", "a b -D", true},
		{"X='$A'\"$A\"$A${HOME}/x", "X", "$Aa ba b/h/x", true},
		{`X="a\"b\$c\d"`, "X", `a"b$c\d`, true},
		{`X=a\ b`, "X", "a b", true},
		{"X=$ # comment", "X", "$", true},
		{"X=", "X", "", true},
		{"X=`pwd`", "", "", false},
		{"X=${A:-d}", "", "", false},
		{"X=\"open", "", "", false},
		{"X=1 cmd", "", "", false},
		{"1X=1", "", "", false},
		{"echo X=1", "", "", false},
		{"if [ x = y ]; then", "", "", false},
		{"export", "", "", false},
	} {
		name, value, ok := shellAssignment(c.line, get)
		if name != c.name || value != c.value || ok != c.ok {
			t.Errorf("shellAssignment(%q) = %q, %q, %v; want %q, %q, %v", c.line, name, value, ok, c.name, c.value, c.ok)
		}
	}
}
