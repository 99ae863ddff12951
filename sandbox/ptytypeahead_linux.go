package sandbox

import "golang.org/x/sys/unix"

// typedAheadMax bounds what takeTypedAhead reads: the caller's cooked
// line holds 4096 bytes at most.
const typedAheadMax = 4096

// takeTypedAhead passes on what was typed before the caller's terminal
// goes raw, read as the terminal's cooked lines: an end of file typed
// ahead (Ctrl-D, or script(1)'s when its input ends) is turned into a NUL
// byte by the kernel once the terminal is raw, and the program waited for
// input for ever. It becomes the caller's end-of-file key, as typed then.
// Only where omega-run reads the terminal, in its foreground.
func (r *ptyRelay) takeTypedAhead() {
	if !r.onFD[0] || !r.foreground() || r.saved.Lflag&unix.ICANON == 0 {
		return
	}
	buf := make([]byte, typedAheadMax)
	for taken := 0; taken < typedAheadMax; {
		fds := []unix.PollFd{{Fd: 0, Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents != unix.POLLIN {
			return // nothing whole left (a part of a line stays, raw), or a hangup
		}
		n, err := unix.Read(0, buf[:typedAheadMax-taken])
		if err != nil {
			return
		}
		typed := buf[:n]
		if n == 0 {
			typed = []byte{r.saved.Cc[unix.VEOF]}
		}
		if _, err := r.master.Write(typed); err != nil {
			return
		}
		taken += len(typed)
	}
}
