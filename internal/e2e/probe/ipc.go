//go:build linux

package main

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// ipc runs the actions on System V IPC objects of the host.
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
	}
	return false, nil
}
