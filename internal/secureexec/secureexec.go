// Package secureexec tells whether this process runs with privileges its
// caller does not have: a setuid or setgid bit on the executable, or file
// capabilities. omega-run is not made for that (bubblewrap's setuid mode
// is a design of its own): every user could run every program with them,
// `--mode rwx -- sh` as root. So the CLI and the init stages refuse to
// start, before they read anything a caller chose.
package secureexec

import (
	"fmt"
	"io/fs"
	"os"
)

// ids are the process's real and effective user and group ids.
type ids struct{ uid, euid, gid, egid int }

// Check returns an error saying why, or nil where the process has only
// its caller's privileges.
func Check() error {
	return check(ids{os.Getuid(), os.Geteuid(), os.Getgid(), os.Getegid()}, kernelSecure(), executable)
}

// binary is the running executable, as the refusal names it.
type binary struct {
	path  string
	setid bool // a setuid or setgid bit is on it
}

// check takes exe as a func: the path is read (a readlink) only for the
// refusal, not on every launch.
func check(id ids, secure bool, executable func() binary) error {
	if id.uid == id.euid && id.gid == id.egid && !secure {
		return nil
	}
	bin := executable()
	exe := bin.path
	var why string
	undo := "chmod u-s,g-s " + exe
	if !bin.setid {
		// No bit to take off: a parent switched only the effective ids
		// (the kernel sets AT_SECURE for that exec too).
		undo = "start it with its real and effective ids alike"
	}
	switch {
	case id.uid != id.euid:
		why = fmt.Sprintf("effective uid %d for uid %d", id.euid, id.uid)
	case id.gid != id.egid:
		why = fmt.Sprintf("effective gid %d for gid %d", id.egid, id.gid)
	case secure:
		why = "the kernel's secure-exec mode"
		undo = "setcap -r " + exe + ", or leave it out of a security module's transition"
	default:
		return nil
	}
	return fmt.Errorf("refused: %s runs with privileges its caller does not have (%s), "+
		"which would let every user run every program with them; omega-run needs none: %s", exe, why, undo)
}

// executable names the binary for the message (the path as the kernel
// resolved it, not argv[0], which the caller chose) and tells whether it
// has a setuid or setgid bit (through /proc/self/exe where there is one:
// the very file that runs).
func executable() binary {
	b := binary{path: "omega-run"}
	if p, err := os.Executable(); err == nil {
		b.path = p
	}
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		fi, err = os.Stat(b.path)
	}
	b.setid = err == nil && fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0
	return b
}
