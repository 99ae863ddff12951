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
	if r.in < 0 || !r.foreground() || r.saved.Lflag&unix.ICANON == 0 {
		return
	}
	buf := make([]byte, typedAheadMax)
	for taken := 0; taken < typedAheadMax; {
		fds := []unix.PollFd{{Fd: int32(r.in), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents != unix.POLLIN {
			return // nothing whole left (a part of a line stays, raw), or a hangup
		}
		want := typedAheadMax - taken
		n, err := unix.Read(r.in, buf[:want])
		if err != nil {
			return
		}
		typed, eof := buf[:n], r.saved.Cc[unix.VEOF]
		switch {
		case n == 0:
			typed = []byte{eof}
		case n < want && !r.lineEnd(typed[n-1]) && eof != 0:
			// Ended by the end-of-file key ("abc", Ctrl-D), which read(2)
			// leaves out: it ends the line for the program too.
			typed = append(typed, eof)
		}
		if _, err := r.master.Write(typed); err != nil {
			return
		}
		taken += len(typed)
	}
}

// lineEnd tells whether c ends a cooked line by itself (newline, or the
// caller's VEOL or VEOL2 key): what read(2) returns with the line.
func (r *ptyRelay) lineEnd(c byte) bool {
	eol, eol2 := r.saved.Cc[unix.VEOL], r.saved.Cc[unix.VEOL2]
	return c == '\n' || (eol != 0 && c == eol) || (eol2 != 0 && c == eol2)
}
