//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateHintPasted: on a fresh home the state warning's flags, pasted
// as they are, make the tool's write work and silence the warning (the
// go hint offered --allow-write of directories that did not exist, and
// the warning stayed with GOPATH and GOCACHE set as it advised).
func TestStateHintPasted(t *testing.T) {
	env := goToolEnv(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				proj := goProject(t, w)
				chownTree(t, w.extra, u)
				for _, c := range [][]string{
					{"git", "config", "--global", "user.name", "X"},
					{"go", "vet", "."},
				} {
					base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj}
					// git's warning is for a person at a terminal
					// (TestGitStateWarningTerminalOnly).
					run := func(args ...string) (int, string) {
						if c[0] == "git" {
							out, code := onPty(t, w, "", args...)
							return code, out
						}
						r := w.runEnv(env, args...)
						return r.code, r.stderr
					}
					code, stderr := run(append(append(base, "--"), c...)...)
					line := stateLine(stderr)
					if code == 0 || line == "" {
						t.Fatalf("%s on a fresh home: exit %d, stderr %.600q; want it to fail, with a warning", c, code, stderr)
					}
					code, stderr = run(append(append(append(base, pastedFlags(line)...), "--"), c...)...)
					if code != 0 || stateLine(stderr) != "" {
						t.Errorf("%s with the hint's flags %q: exit %d, stderr %.600q; want it to work, without the warning", c, pastedFlags(line), code, stderr)
					}
				}
				if b, err := os.ReadFile(filepath.Join(w.dataDir, "workspace", ".gitconfig")); err != nil || !strings.Contains(string(b), "X") {
					t.Errorf("the workspace's .gitconfig: %q, %v", b, err)
				}
			})
		}
	}
}

// stateLine is the state warning in stderr, or "".
func stateLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, " keeps state in ") {
			return l
		}
	}
	return ""
}

// pastedFlags are the --setenv flags of a warning's hint, as a user
// pastes them.
func pastedFlags(line string) []string {
	var out []string
	words := strings.Fields(line)
	for i, w := range words {
		if w == "--setenv" && i+1 < len(words) {
			out = append(out, w, strings.TrimRight(words[i+1], ",);"))
		}
	}
	return out
}

// TestGoEnvFileSilences: GOPATH and GOCACHE moved into the workspace
// with go env -w (go's settings file, the way to keep them across
// launches) make go work confined, and the launch no longer says that go
// writes in ~/go and ~/.cache/go-build: it did on every launch.
func TestGoEnvFileSilences(t *testing.T) {
	env := goToolEnv(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				proj := goProject(t, w)
				ws := filepath.Join(w.dataDir, "workspace")
				mustMkdir(t, filepath.Join(w.home, ".config", "go"))
				writeFile(t, filepath.Join(w.home, ".config", "go", "env"), "GOPATH="+ws+"/go\nGOCACHE="+ws+"/gocache\n")
				chownTree(t, w.extra, u)
				chownTree(t, w.home, u)
				r := w.runEnv(env, "--mode", mode, "--allow-write", proj, "--workdir", proj, "--", "go", "vet", ".")
				if r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("go vet with go env -w's GOPATH and GOCACHE in the workspace: %+v; want it to work, without the warning", r)
				}
				if _, err := os.Stat(filepath.Join(ws, "gocache")); err != nil {
					t.Errorf("go did not use the GOCACHE of its settings file: %v", err)
				}
			})
		}
	}
}

// TestGitStateWarningTerminalOnly: git's state outside the writable set
// (~/.gitconfig) is written by commands a person types (git config
// --global), not by everyday git: a script or agent that runs
// `omega-run -- git status` hundreds of times must not get the warning
// on every launch; a person at a terminal still gets it, and explain
// lists it either way. git var stands for every command: git --version
// writes nothing, and gets no warning (TestGitQuietNoStateWarning).
func TestGitStateWarningTerminalOnly(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				proj := filepath.Join(w.extra, "p")
				mustMkdir(t, proj)
				chownTree(t, w.extra, u)
				args := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--", "git", "var", "-l"}
				if r := w.run(args...); r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("git through a pipe: %+v; want it to run without the state warning", r)
				}
				if out, code := onPty(t, w, "", args...); code != 0 || !strings.Contains(out, "git keeps state in ") {
					t.Errorf("git on a terminal: exit %d, output %.400q; want the state warning", code, out)
				}
				if r := w.run(append([]string{"explain"}, args...)...); !strings.Contains(r.stdout+r.stderr, "git keeps state in ") {
					t.Errorf("explain: %+v; want the state warning listed", r)
				}
			})
		}
	}
}

// TestGitQuietNoStateWarning: git --version, git help and git alone
// print and exit, writing no state, yet a terminal got git's state
// warning with them (~/.gitconfig outside the writable set). They get
// none now; other commands still do (TestGitStateWarningTerminalOnly).
func TestGitQuietNoStateWarning(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				for _, args := range [][]string{{"--version"}, {"help"}, {}} {
					out, _ := onPty(t, w, "", append([]string{"--mode", mode, "--", "git"}, args...)...)
					if strings.Contains(out, "git keeps state in ") || !strings.Contains(out, "git") {
						t.Errorf("git %s on a terminal: output %.400q; want it run, without the state warning", args, out)
					}
				}
			})
		}
	}
}

// TestPipQuietCommandsNoStateWarning: pip --version and pip help write
// no state, so they get no warning about where pip writes it (they did,
// on every launch); pip install still gets it. The pip here is a script
// that prints its arguments: the warning is the launcher's, from the
// program's name.
func TestPipQuietCommandsNoStateWarning(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				pip := filepath.Join(w.extra, "pip")
				writeExec(t, pip, "#!/bin/sh\necho \"pip $*\"\n")
				for _, c := range []struct {
					args []string
					warn bool
				}{{[]string{"--version"}, false}, {[]string{"help", "install"}, false}, {[]string{"install", "x"}, true}} {
					r := w.run(append([]string{"--mode", mode, "--", pip}, c.args...)...)
					if r.code != 0 || (stateLine(r.stderr) != "") != c.warn || r.stdout != "pip "+strings.Join(c.args, " ")+"\n" {
						t.Errorf("pip %s: %+v; want it run, with the state warning: %v", c.args, r, c.warn)
					}
				}
			})
		}
	}
}

// TestClaudeConfigDirSaid: with the user's own CLAUDE_CONFIG_DIR (a
// second account's ~/.claude-work), Claude Code writes its sessions,
// settings and state there, outside the writable set: every write failed
// and the launch said nothing. It names the directory and the flag, and
// the flag, pasted, makes the write work without the warning.
func TestClaudeConfigDirSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			prog := scriptClaude(t, w)
			dir := filepath.Join(w.home, ".claude-work")
			mustMkdir(t, dir)
			chownTree(t, dir, u)
			env := []string{"CLAUDE_CONFIG_DIR=" + dir}
			write := []string{"--", prog, `echo '{}' > "$CLAUDE_CONFIG_DIR/.claude.json"`}
			r := w.runEnv(env, write...)
			line := stateLine(r.stderr)
			if r.code == 0 || !strings.Contains(line, "claude keeps state in "+dir) || !strings.Contains(line, "add --allow-write "+dir) {
				t.Fatalf("%+v; want the write refused and the launch to name %s and the flag", r, dir)
			}
			r = w.runEnv(env, append([]string{"--allow-write", dir}, write...)...)
			if r.code != 0 || stateLine(r.stderr) != "" {
				t.Errorf("with --allow-write %s: %+v; want the write to work, unwarned", dir, r)
			}
			// A link to a writable directory (~/.claude) takes the
			// writes: no warning that they will be refused.
			link := filepath.Join(w.home, ".claude-link")
			if err := os.Symlink(filepath.Join(w.home, ".claude"), link); err != nil {
				t.Fatal(err)
			}
			r = w.runEnv([]string{"CLAUDE_CONFIG_DIR=" + link}, write...)
			if r.code != 0 || stateLine(r.stderr) != "" {
				t.Errorf("CLAUDE_CONFIG_DIR=%s, a link to ~/.claude: %+v; want the write to work, unwarned", link, r)
			}
		})
	}
}

// TestStateWarningNpx: npx is npm exec and fetches into npm's cache, so
// `omega-run -- npx …` failed with EROFS on ~/.npm without npm's hint;
// it gets the same warning, and the pasted flag silences it.
func TestStateWarningNpx(t *testing.T) {
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("no npx here")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.run("--", npx, "--version")
			line := stateLine(r.stderr)
			if r.code != 0 || !strings.Contains(line, "npm keeps state in "+filepath.Join(w.home, ".npm")) {
				t.Fatalf("%+v; want npm's state warning", r)
			}
			r = w.run(append(pastedFlags(line), "--", npx, "--version")...)
			if r.code != 0 || stateLine(r.stderr) != "" {
				t.Errorf("with %q: %+v; want it silenced", pastedFlags(line), r)
			}
		})
	}
}

// goToolEnv is the environment of a test that runs the go tool confined,
// which it needs installed.
func goToolEnv(t *testing.T) []string {
	t.Helper()
	gotool := "/usr/local/go/bin/go"
	if _, err := os.Stat(gotool); err != nil {
		t.Fatalf("%s is needed for this test", gotool)
	}
	return []string{"PATH=/usr/local/go/bin:/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false"}
}

// goProject makes a one-package Go module in w's extra dir, and gives w
// the time a cold go command takes.
func goProject(t *testing.T, w *world) string {
	t.Helper()
	w.timeout = 3 * time.Minute
	proj := filepath.Join(w.extra, "p")
	mustMkdir(t, proj)
	writeFile(t, filepath.Join(proj, "go.mod"), "module example.com/p\n\ngo 1.22\n")
	writeFile(t, filepath.Join(proj, "p.go"), "package p\n")
	return proj
}

// TestAgentHomeSaid: Codex CLI and Gemini CLI write their login, config
// and sessions in ~/.codex and ~/.gemini from the first start; confined,
// codex stopped with "Read-only file system (os error 30)" and a hint
// about its daemon, and the launch named nothing. A stand-in that writes
// there as they do is refused, the launch names the directory and the
// grant, and the grant, made as said, lets it write without the warning.
func TestAgentHomeSaid(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, agent := range []string{"codex", "gemini"} {
				t.Run(u.name+"/"+mode+"/"+agent, func(t *testing.T) {
					w := newWorld(t, u)
					prog := filepath.Join(w.extra, agent)
					dir := filepath.Join(w.home, "."+agent)
					writeExec(t, prog, "#!/bin/sh\nmkdir -p \"$HOME/."+agent+"\" && echo x > \"$HOME/."+agent+"/config.toml\"\n")
					r := w.run("--mode", mode, "--", prog)
					line := stateLine(r.stderr)
					if r.code == 0 || !strings.Contains(line, agent+" keeps state in "+dir) || !strings.Contains(line, "mkdir "+dir+", then add --allow-write "+dir) {
						t.Fatalf("%+v; want the write refused and the launch to name %s and the grant", r, dir)
					}
					mustMkdir(t, dir)
					chownTree(t, dir, u)
					r = w.run("--mode", mode, "--allow-write", dir, "--", prog)
					if _, err := os.Stat(filepath.Join(dir, "config.toml")); r.code != 0 || stateLine(r.stderr) != "" || err != nil {
						t.Errorf("with --allow-write %s: %+v, %v; want the write to work, unwarned", dir, r, err)
					}
				})
			}
		}
	}
}

// TestCargoStateSaid: cargo fetches every dependency (crates.io's, git
// ones) into ~/.cargo/registry and ~/.cargo/git; confined, a build with
// one stopped on "Read-only file system (os error 30)" and the launch
// named nothing. A stand-in that writes there as cargo does is refused,
// the launch names cargo's state and CARGO_HOME, and the hint's flags,
// pasted, let it write in the workspace without the warning.
func TestCargoStateSaid(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				prog := filepath.Join(w.extra, "cargo")
				writeExec(t, prog, "#!/bin/sh\nd=\"${CARGO_HOME:-$HOME/.cargo}/git/db\"\nmkdir -p \"$d\" && echo x > \"$d/dep\"\n")
				r := w.run("--mode", mode, "--", prog)
				line := stateLine(r.stderr)
				if r.code == 0 || !strings.Contains(line, "cargo keeps state in "+filepath.Join(w.home, ".cargo", "registry")) ||
					!strings.Contains(line, "--setenv CARGO_HOME=") {
					t.Fatalf("%+v; want the write refused and the launch to name cargo's state and CARGO_HOME", r)
				}
				r = w.run(append(append([]string{"--mode", mode}, pastedFlags(line)...), "--", prog)...)
				if r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("with the hint's flags %q: %+v; want it to work, without the warning", pastedFlags(line), r)
				}
				if _, err := os.Stat(filepath.Join(w.dataDir, "workspace", ".cargo", "git", "db", "dep")); err != nil {
					t.Errorf("cargo's state is not in the workspace: %v", err)
				}
			})
		}
	}
}

// mavenWorld is a world with a Maven project of one pom below w.extra,
// which u owns, and the environment that tells Java the world's home:
// Java takes its home from the user database, the world's is HOME, as
// both are outside a test.
func mavenWorld(t *testing.T, u user) (*world, string, []string) {
	t.Helper()
	w := newWorld(t, u)
	w.timeout = 2 * time.Minute
	proj := filepath.Join(w.extra, "m")
	mustMkdir(t, proj)
	writeFile(t, filepath.Join(proj, "pom.xml"), "<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId><artifactId>x</artifactId><version>1</version></project>\n")
	chownTree(t, w.extra, u)
	// The JVM's C1 compiler and serial collector alone: 40 % less CPU
	// for each mvn, which the tests run dozens of times.
	return w, proj, []string{"JAVA_TOOL_OPTIONS=-Duser.home=" + w.home + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
}

// TestMavenStateSaid: Maven creates its local repository,
// ~/.m2/repository, before anything else; confined, every mvn command
// stopped on "Could not create local repository" and the launch named
// nothing. Real mvn (a validate that needs no plugin, offline): refused
// with the launch naming ~/.m2/repository and MAVEN_OPTS; the hint's
// flags, pasted, let it work without the warning.
func TestMavenStateSaid(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn is not installed")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, env := mavenWorld(t, u)
				base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj}
				mvn := []string{"--", "mvn", "-o", "-q", "validate"}
				r := w.runEnv(env, append(base, mvn...)...)
				line := stateLine(r.stderr)
				if r.code == 0 || !strings.Contains(line, "mvn keeps state in "+filepath.Join(w.home, ".m2", "repository")) ||
					!strings.Contains(line, "--setenv MAVEN_OPTS=-Dmaven.repo.local=") {
					t.Fatalf("%+v; want mvn refused and the launch to name ~/.m2/repository and MAVEN_OPTS", r)
				}
				r = w.runEnv(env, append(append(base, pastedFlags(line)...), mvn...)...)
				if r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("with the hint's flags %q: %+v; want it to work, without the warning", pastedFlags(line), r)
				}
				if _, err := os.Stat(filepath.Join(w.dataDir, "workspace", ".m2", "repository")); err != nil {
					t.Errorf("Maven's repository is not in the workspace: %v", err)
				}
			})
		}
	}
}

// TestMavenQuietOrMovedNoStateWarning: mvn -v writes nothing, and mvn
// given -Dmaven.repo.local on its own command line (Maven's documented
// way) writes its repository there: neither was to be told that mvn
// writes ~/.m2/repository. Real mvn, offline; the repository is checked
// from outside.
func TestMavenQuietOrMovedNoStateWarning(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Skip("mvn is not installed")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, env := mavenWorld(t, u)
				base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--"}
				if r := w.runEnv(env, append(base, "mvn", "-v")...); r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("mvn -v: %+v; want it run without the state warning", r)
				}
				repo := filepath.Join(proj, "repo")
				r := w.runEnv(env, append(base, "mvn", "-o", "-q", "-Dmaven.repo.local="+repo, "validate")...)
				if r.code != 0 || stateLine(r.stderr) != "" {
					t.Errorf("mvn -Dmaven.repo.local=%s: %+v; want it run without the state warning", repo, r)
				}
				if _, err := os.Stat(repo); err != nil {
					t.Errorf("Maven's repository is not where its command line put it: %v", err)
				}
			})
		}
	}
}
