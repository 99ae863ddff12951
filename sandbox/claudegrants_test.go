package sandbox

import "testing"

// TestAnyCommandSpellings: spellings of a grant of every command that Claude
// Code's matcher accepts (a wildcard inside the first word, the shell's
// quoting, variables set before the command) are named as the plain ones are;
// the narrow grants stay unnamed.
func TestAnyCommandSpellings(t *testing.T) {
	for rule, want := range map[string]bool{
		"Bash(s*)":                true, // sh, setsid, su
		"Bash(py*:*)":             true,
		"Bash(/usr/bin/p* -c *)":  true,
		"Bash(/usr/*)":            true,
		"Bash(ba* *)":             true,
		`Bash(\sh -c:*)`:          true,
		`Bash('bash' -c *)`:       true,
		`Bash("python3" *)`:       true,
		"Bash(FOO=1 sh -c:*)":     true,
		"Bash(A=1 B=2 node:*)":    true,
		"Bash(npm*)":              true, // npm exec sh
		"Bash(npm exec:*)":        true,
		"Bash(npx -y x)":          true,
		"Bash(pnpm dlx *)":        true,
		"Bash(uv run:*)":          true,
		"Bash(docker run *)":      true,
		"Bash(docker e*)":         true,
		"Bash(git:*)":             true, // git -c alias.x=!sh x
		"Bash(git -c *)":          true,
		"Bash(FOO=1 yarn dlx:*)":  true,
		"Bash(npm install)":       false,
		"Bash(git log *)":         false,
		"Bash(git)":               false,
		"Bash(docker ps)":         false,
		"Bash(npm run test:*)":    false,
		"Bash(git status)":        false,
		"Bash(./gradlew build *)": false,
		"Bash(ls *)":              false,
		"Bash(make=1)":            false,
		"BashOutput":              false,
		"Read(~/.claude/**)":      false,
		"Bash(/home/u/tool*:*)":   false,
	} {
		if got := anyCommand(rule); got != want {
			t.Errorf("anyCommand(%q) = %v, want %v", rule, got, want)
		}
	}
}
