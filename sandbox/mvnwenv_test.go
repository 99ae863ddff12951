package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMvnwPlaces: where each kind of Maven wrapper unpacks Maven and
// keeps its download, as its script or maven-wrapper.jar finds them.
func TestMvnwPlaces(t *testing.T) {
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
		dists, zips         mvnwPlace
	}{
		{name: "script-only, default", script: "only-mvnw"},
		{name: "script-only, MAVEN_USER_HOME", script: "only-mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m"}, dists: mvnwPlace{dir: "/m/wrapper/dists"}},
		{name: "script-only reads no property nor properties", script: "only-mvnw", props: "distributionBase=PROJECT\n", env: map[string]string{"MAVEN_OPTS": "-Dmaven.user.home=/p"}},
		{name: "jar, default", script: "mvnw"},
		{name: "jar, MAVEN_USER_HOME", script: "mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m"}, dists: mvnwPlace{dir: "/m/wrapper/dists"}},
		{name: "jar, the property first", script: "mvnw", env: map[string]string{"MAVEN_USER_HOME": "/m", "MAVEN_OPTS": "-Xmx1g -Dmaven.user.home=/p"},
			dists: mvnwPlace{"/p/wrapper/dists", true}},
		{name: "jar, the property in JAVA_TOOL_OPTIONS, before MAVEN_OPTS", script: "mvnw", env: map[string]string{"JAVA_TOOL_OPTIONS": "-Dmaven.user.home=/t"},
			dists: mvnwPlace{"/t/wrapper/dists", true}},
		{name: "jar, MAVEN_OPTS over JAVA_TOOL_OPTIONS", script: "mvnw", env: map[string]string{"JAVA_TOOL_OPTIONS": "-Dmaven.user.home=/t", "MAVEN_OPTS": "-Dmaven.user.home=/p"},
			dists: mvnwPlace{"/p/wrapper/dists", true}},
		{name: "jar, the property among its arguments", script: "mvnw", args: []string{"-Dmaven.user.home=rel", "verify"},
			dists: mvnwPlace{proj + "/rel/wrapper/dists", true}},
		{name: "jar, in the project, its download too", script: "mvnw", props: "# mine\ndistributionBase = PROJECT\ndistributionPath=.mvn/d\nzipStoreBase=PROJECT\nzipStorePath=.mvn/d\n",
			env: map[string]string{"MAVEN_USER_HOME": "/m"}, dists: mvnwPlace{dir: proj + "/.mvn/d"}},
		{name: "jar, in the project, its download in MAVEN_USER_HOME", script: "mvnw", props: "distributionBase=PROJECT\ndistributionPath=.mvn/d\n",
			env: map[string]string{"MAVEN_USER_HOME": "/m"}, dists: mvnwPlace{dir: proj + "/.mvn/d"}, zips: mvnwPlace{dir: "/m/wrapper/dists"}},
		{name: "jar, in the project, its download in ~/.m2", script: "mvnw", props: "distributionBase=PROJECT\n",
			dists: mvnwPlace{dir: proj + "/wrapper/dists"}, zips: mvnwPlace{dir: "/h/.m2/wrapper/dists"}},
		{name: "jar, the download in the project", script: "mvnw", props: "zipStoreBase=PROJECT\n", zips: mvnwPlace{dir: proj + "/wrapper/dists"}},
		{name: "jar, other paths in ~/.m2", script: "mvnw", props: "distributionPath: w\nzipStorePath=wrapper/z\n", dists: mvnwPlace{dir: "/h/.m2/w"}, zips: mvnwPlace{dir: "/h/.m2/wrapper/z"}},
		{name: "jar, the property moves the download too", script: "mvnw", props: "distributionBase=PROJECT\n", env: map[string]string{"MAVEN_OPTS": "-Dmaven.user.home=/p"},
			dists: mvnwPlace{dir: proj + "/wrapper/dists"}, zips: mvnwPlace{"/p/wrapper/dists", true}},
	} {
		write(filepath.Join(proj, ".mvn", "wrapper", "maven-wrapper.properties"), "distributionUrl=https://x/apache-maven-3.9.9-bin.zip\n"+c.props)
		env := map[string]string{"HOME": "/h"}
		for k, v := range c.env {
			env[k] = v
		}
		dists, zips := mvnwPlaces(c.script, c.args, proj, func(k string) string { return env[k] })
		if dists != c.dists || zips != c.zips {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, dists, zips, c.dists, c.zips)
		}
	}
}
