package seccomp

import (
	"runtime"

	"golang.org/x/sys/unix"
)

func nativeGuardNumbers() (guardABI, bool) {
	if _, ok := hostGuardCalls[runtime.GOARCH]; !ok {
		return guardABI{}, false
	}
	return guardABI{arch: runtime.GOARCH, prlimit: unix.SYS_PRLIMIT64, socket: unix.SYS_SOCKET, sendto: unix.SYS_SENDTO,
		sendmsg: unix.SYS_SENDMSG, sendmmsg: unix.SYS_SENDMMSG}, true
}
