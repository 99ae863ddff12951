//go:build linux

package landlock

import "golang.org/x/sys/unix"

var errE2BIG = unix.E2BIG

func closeFD(fd int) error { return unix.Close(fd) }
