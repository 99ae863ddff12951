package nsexec

import (
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// refuseHiddenWorkdir is cinit_mounts.c's refuse_hidden_wd: a working
// directory at or below a hidden one would be kept open and read
// through; compared by identity (each hidden dir as it resolves now
// against the working directory and each one above it), so no name for
// it gets past.
func refuseHiddenWorkdir(hidden []string) error {
	type id struct{ dev, ino uint64 }
	var hid []id
	for _, h := range hidden {
		var st unix.Stat_t
		if unix.Stat(h, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			hid = append(hid, id{st.Dev, st.Ino})
		}
	}
	if len(hid) == 0 {
		return nil
	}
	fd, err := unix.Open(".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	for depth := 0; err == nil && depth < 4096; depth++ {
		var st, up unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			break
		}
		if slices.Contains(hid, id{st.Dev, st.Ino}) {
			unix.Close(fd)
			wd, _ := os.Getwd()
			return fmt.Errorf("working directory %s is inside a directory the sandbox hides: run from another directory", wd)
		}
		parent, perr := unix.Openat(fd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		fd, err = parent, perr
		if err == nil && (unix.Fstat(fd, &up) != nil || up.Dev == st.Dev && up.Ino == st.Ino) {
			break // the root: its .. is itself
		}
	}
	if err == nil {
		unix.Close(fd)
	}
	return nil
}
