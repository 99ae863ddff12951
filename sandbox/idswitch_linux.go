package sandbox

import (
	"errors"

	"golang.org/x/sys/unix"
)

// idSwitchRefused says why root cannot switch ids here, or is nil: uid 0
// without CAP_SETUID and CAP_SETGID (a program confined by another
// omega-run, a container that dropped them) would otherwise fail at
// setgroups with a bare EPERM. Unknown counts as able.
func idSwitchRefused() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return nil
	}
	const need = 1<<unix.CAP_SETUID | 1<<unix.CAP_SETGID
	if data[0].Effective&need == need {
		return nil
	}
	msg := "--user, --group and --groups: omega-run runs as root but without CAP_SETUID and CAP_SETGID, so it cannot switch to another user"
	if outer := outerSandbox(); outer != "" {
		msg += "; it runs inside another omega-run (OMEGA_SANDBOX=" + outer + "), whose programs have no capabilities: give --user to the outer omega-run"
	}
	return errors.New(msg)
}
