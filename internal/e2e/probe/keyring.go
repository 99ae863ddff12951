//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// withSessionKey joins a new session keyring, adds a user key DESC with
// PAYLOAD to it, as pam_keyinit and kinit's KEYRING: cache do, and runs
// the program with it.
func withSessionKey(args []string) error {
	// A NULL name: a new anonymous keyring (KeyctlJoinSessionKeyring
	// passes "", which the kernel refuses).
	if _, _, e := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0); e != 0 {
		return fmt.Errorf("join session keyring: %w", e)
	}
	if _, err := unix.AddKey("user", args[0], []byte(args[1]), unix.KEY_SPEC_SESSION_KEYRING); err != nil {
		return fmt.Errorf("add_key: %w", err)
	}
	c := exec.Command(args[2], args[3:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		os.Exit(c.ProcessState.ExitCode())
	}
	os.Exit(0)
	return nil
}

// readSessionKey prints the payload of the user key DESC found through
// the session keyring.
func readSessionKey(desc string) error {
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_SESSION_KEYRING, "user", desc, 0)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	buf := make([]byte, 256)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	fmt.Printf("%s\n", buf[:min(n, len(buf))])
	return nil
}
