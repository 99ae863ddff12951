package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestExplainPlantedNewline: explain names files a confined program may
// have made (a repository below a writable root, whose .git/config it
// keeps read-only). A newline in such a name must not start a line of
// its own, which would forge one of explain's ("writable:    /").
func TestExplainPlantedNewline(t *testing.T) {
	planted := "/w/sub\nwritable:    FORGED"
	e := sandbox.Explanation{
		Mode: sandbox.ModeSandbox, DataDir: planted, Program: "/bin/true", Args: []string{planted},
		Writable: []string{"/w", planted}, Workdir: planted, Network: sandbox.NetHost,
		Hidden: []string{planted}, ReadOnly: []string{planted + "/.git/config"},
		AllowedSockets: []string{planted}, Seccomp: "default",
		RefusedState: []string{planted}, Warnings: []string{"git dir " + planted},
	}
	var b bytes.Buffer
	printExplanation(safeLines{&b}, e, true)
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.Contains(l, "FORGED") && !strings.Contains(l, `sub\u000awritable:    FORGED`) {
			t.Errorf("line %q: the planted name's newline was not escaped\n%s", l, b.String())
		}
	}
}
