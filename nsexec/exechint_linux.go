package nsexec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// execHint explains an ENOENT from execve of a file that exists: its #!
// interpreter, or the ELF loader it names, is missing; and an ENOEXEC of
// text without a #! line, which shells run with sh and execve does not
// (the C stage's omega_exec_hint).
// noShebangHint is the C stage's too (cinit_errors.c).
const noShebangHint = " (a script without a #! line: start it with #!/bin/sh, or run it with sh)"

func execHint(path string, err error) string {
	noExec := errors.Is(err, unix.ENOEXEC)
	if !errors.Is(err, unix.ENOENT) && !noExec {
		return ""
	}
	// A FIFO must not block: raw calls, as os.File would wait in the
	// poller for a writer that writes nothing.
	fd, ferr := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if ferr != nil {
		return ""
	}
	buf := make([]byte, 256)
	n, _ := unix.Read(fd, buf)
	unix.Close(fd)
	n = max(n, 0)
	head := string(buf[:n])
	if noExec {
		if n > 0 && !strings.HasPrefix(head, "#!") && !strings.HasPrefix(head, "\x7fELF") && !strings.Contains(head, "\x00") {
			return noShebangHint
		}
		return ""
	}
	if rest, ok := strings.CutPrefix(head, "#!"); ok {
		return shebangHint(rest)
	}
	if strings.HasPrefix(head, "\x7fELF") {
		return " (the file exists: the ELF loader it names does not)"
	}
	return ""
}

// crlfHint explains a #! line that ends in a carriage return: the
// kernel looks for an interpreter whose name ends in it, and the plain
// "no such file or directory" names nothing missing (the C stage's too).
const crlfHint = " (the file exists: its #! line ends in a carriage return (Windows line endings), so its interpreter is %s\\r, " +
	"which does not exist: convert the file with dos2unix or sed -i 's/\\r$//')"

// shebangHint is execHint's for a missing interpreter, rest being what
// follows the #!. The name is read as the kernel reads it
// (binfmt_script): after spaces and tabs, up to a space, a tab or the
// line's end, so that a carriage return is part of it.
func shebangHint(rest string) string {
	line := strings.TrimLeft(strings.SplitN(rest, "\n", 2)[0], " \t")
	name, _, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
	if name == "" {
		return ""
	}
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	trimmed, crlf := strings.CutSuffix(name, "\r")
	// The file's bytes go to the user's terminal: no controls.
	shown := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, trimmed)
	if crlf {
		return fmt.Sprintf(crlfHint, shown)
	}
	return " (the file exists: its interpreter " + shown + " does not)"
}
