package sandbox

import "golang.org/x/sys/unix"

// keysFrom is the fd omega-run reads the user's keys from: stdin when it
// is on the terminal; else, with stdout on it (seq 100 | omega-run --pty
// -- less), /dev/tty when stdout's terminal is omega-run's controlling
// one (its session's), as sudo reads /dev/tty: a pager reads its keys
// from its terminal, the program's own now, and nothing else would type
// them there. -1 for none: stdout in a pipeline too, where a pager after
// omega-run reads the keys, or on another terminal.
func (r *ptyRelay) keysFrom() int {
	if r.onFD[0] {
		return 0
	}
	if !r.onFD[1] {
		return -1
	}
	sid, err := unix.IoctlGetInt(1, unix.TIOCGSID)
	if own, serr := unix.Getsid(0); err != nil || serr != nil || sid != own {
		return -1
	}
	fd, err := unix.Open("/dev/tty", unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}
