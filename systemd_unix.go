//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

func hostServiceEnv() serviceEnv {
	return serviceEnv{pid: os.Getpid(), getenv: os.Getenv, fdOpen: func(fd int) bool {
		_, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		return err == nil
	}}
}
