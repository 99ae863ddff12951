//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// subreaper runs PROG ARGS… as a child subreaper, so that whatever PROG
// leaves behind (a process still running, or one that exited unreaped)
// becomes this process's child; it refuses if any is there once PROG has
// exited. It prints "exit N" for PROG's status first.
func subreaper(args []string) error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return err
	}
	fmt.Println("exit", cmd.ProcessState.ExitCode())
	time.Sleep(200 * time.Millisecond) // an orphan's exit and reparenting
	var left []string
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, pid := range strings.Fields(string(b)) {
			cmdline, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			left = append(left, pid+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("left behind: %s", strings.Join(left, "; "))
	}
	return nil
}
