//go:build linux

package main

import (
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ipc runs the actions on System V and POSIX IPC objects of the host.
func ipc(action string, args []string) (bool, error) {
	switch action {
	case "sysv-shm-write": // KEY: attach the segment with that key and write "pwned" at its start
		key, err := strconv.ParseInt(args[0], 0, 64)
		if err != nil {
			return true, err
		}
		id, err := unix.SysvShmGet(int(key), 0, 0)
		if err != nil {
			return true, err
		}
		b, err := unix.SysvShmAttach(id, 0, 0)
		if err != nil {
			return true, err
		}
		copy(b, "pwned")
		return true, unix.SysvShmDetach(b)
	case "mq-unlink": // NAME: remove the POSIX message queue /NAME
		return true, mqUnlink(args[0])
	}
	return false, nil
}

func mqUnlink(name string) error {
	p, err := unix.BytePtrFromString(name)
	if err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_MQ_UNLINK, uintptr(unsafe.Pointer(p)), 0, 0); e != 0 {
		return e
	}
	return nil
}
