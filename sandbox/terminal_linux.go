package sandbox

import "golang.org/x/sys/unix"

// stderrTerminal tells whether omega-run's stderr is a terminal: a
// person is watching, not a program collecting the output.
func stderrTerminal() bool {
	_, err := unix.IoctlGetTermios(2, unix.TCGETS)
	return err == nil
}
