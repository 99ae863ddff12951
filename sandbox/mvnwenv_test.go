package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMvnwDists: where each kind of Maven wrapper unpacks Maven, as its
// script or maven-wrapper.jar finds it.
func TestMvnwDists(t *testing.T) {
	proj := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".mvn", "wrapper"), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(proj, "only-mvnw"), "#!/bin/sh\nMAVEN_USER_HOME=\"${MAVEN_USER_HOME:-${HOME}/.m2}\"\n")
	write(filepath.Join(proj, "mvnw"), "#!/bin/sh\nWRAPPER_LAUNCHER=org.apache.maven.wrapper.MavenWrapperMain\n")
	for _, c := range []struct {
		name, script, props string
		env                 map[string]string
		args                []string
		want                string
		byProp              bool
	}{
		{name: "script-only, default", script: "only-mvnw"},
		{name: "script-only, MAVEN_USER_HOME", script: "only-mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m"}, want: "/m/wrapper/dists"},
		{name: "script-only reads no property nor properties", script: "only-mvnw", props: "distributionBase=PROJECT\n", env: map[string]string{"MAVEN_OPTS": "-Dmaven.user.home=/p"}},
		{name: "jar, default", script: "mvnw"},
		{name: "jar, MAVEN_USER_HOME", script: "mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m"}, want: "/m/wrapper/dists"},
		{name: "jar, the property first", script: "mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m", "MAVEN_OPTS": "-Xmx1g -Dmaven.user.home=/p"}, want: "/p/wrapper/dists", byProp: true},
		{name: "jar, the property among its arguments", script: "mvnw", args: []string{"-Dmaven.user.home=rel", "verify"}, want: proj + "/rel/wrapper/dists", byProp: true},
		{name: "jar, in the project", script: "mvnw", props: "# mine\ndistributionBase = PROJECT\ndistributionPath=.mvn/d\n", env: map[string]string{"MAVEN_USER_HOME": "/m"}, want: proj + "/.mvn/d"},
		{name: "jar, another path in ~/.m2", script: "mvnw", props: "distributionPath: w\n", want: "/h/.m2/w"},
	} {
		write(filepath.Join(proj, ".mvn", "wrapper", "maven-wrapper.properties"), "distributionUrl=https://x/apache-maven-3.9.9-bin.zip\n"+c.props)
		env := map[string]string{"HOME": "/h"}
		for k, v := range c.env {
			env[k] = v
		}
		got, byProp := mvnwDists(c.script, c.args, proj, func(k string) string { return env[k] })
		if got != c.want || byProp != c.byProp {
			t.Errorf("%s: %q, %v; want %q, %v", c.name, got, byProp, c.want, c.byProp)
		}
	}
}
