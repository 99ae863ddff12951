package sandbox

import (
	"errors"
	"fmt"

	"github.com/omega-run/omega-run/nsexec"
	"golang.org/x/sys/unix"
)

// startErr is err, a failed start of the init stage, named for what
// failed where a filter around omega-run refuses capset: the start
// raises the capabilities the stage keeps across its exec
// (nsexec.Command's AmbientCaps), and Go reports that EPERM as the
// start's, which cloneFailure would take for refused user namespaces.
// The result carries no errno, so that it does not.
func startErr(err error) error {
	if !errors.Is(err, unix.EPERM) || !capsetRefused() {
		return err
	}
	return fmt.Errorf("init: capabilities: capset: %s (%s)", unix.EPERM.Error(), nsexec.CapsetRefused)
}

// errCapsetKills: a filter around the CLI kills on capset, which rx and
// sandbox mode make to drop the program's capabilities: without this the
// launch died of SIGSYS, in rx with nothing said, in sandbox mode named
// as the mounts' (supervise).
var errCapsetKills = errors.New("stopped: a seccomp filter around omega-run kills it on capset, which drops the program's " +
	"capabilities (systemd's SystemCallFilter=~@privileged, which kills unless SystemCallErrorNumber= is set): " +
	"allow it there (SystemCallFilter=capset), or use --mode rwx")

// capsetRefused tells whether capset fails with EPERM here, where it
// sets this thread's capabilities to what they are: only a filter
// refuses that.
func capsetRefused() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return unix.Capset(&hdr, &data[0]) == unix.EPERM
}
