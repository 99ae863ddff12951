//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// intoCgroup starts a child in the cgroup v2 directory dir with clone3's
// CLONE_INTO_CGROUP (Go's UseCgroupFD), which writes no cgroup.procs file
// that Landlock or a read-only mount could stop, and prints the child's
// /proc/self/cgroup.
func intoCgroup(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	c := exec.Command("/bin/cat", "/proc/self/cgroup")
	c.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(d.Fd())}
	out, err := c.Output()
	fmt.Print(string(out))
	return err
}
