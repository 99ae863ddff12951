//go:build linux

package main

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// ownLandlock applies a Landlock ruleset of the program's own, as an
// agent's sandbox helper (codex's) or go-landlock users do: read
// everywhere, write below DIR only; then runs PROGRAM ARGS... in place.
func ownLandlock(args []string) error {
	if err := landlock.V7.RestrictPaths(landlock.RODirs("/"), landlock.RWDirs(args[0])); err != nil {
		return err
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		return err
	}
	return syscall.Exec(path, args[1:], os.Environ())
}
