package sandbox

import (
	"net"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

// netNoneWarning is the gap of --net none without a network namespace
// (rx, or sandbox without namespaces): Landlock, up to the ABI omega-run
// asks for, denies TCP bind and connect only (not the port listen() binds
// itself), and from ABI 4 on: below it, TCP is open too. A namespace
// with loopback only around omega-run leaves vsock, which only the filter
// stops (seccomp.NetNoneGuard).
func netNoneWarning(pol profiles.Policy, netns bool, abi int) string {
	if pol.Net != profiles.NetNone || netns || pol.Mode == ModeRWX {
		return ""
	}
	if loopbackOnly() {
		if pol.Seccomp != profiles.SeccompNone && filterBuilt(pol.Seccomp) {
			return ""
		}
		return "--net none without a system call filter: vsock, which no network namespace separates, stays open (this one has loopback only)"
	}
	fix := "; " + outerRemedy("use sandbox mode", "give --net none to the outer omega-run",
		"run the outer omega-run in sandbox mode with --net none") + " for no network"
	const gap = "--net none without a network namespace (rx mode, or sandbox mode without user namespaces): "
	if abi < 4 {
		return gap + "this kernel's Landlock cannot deny TCP either (that needs ABI 4), so TCP, UDP (DNS too), raw and " +
			"other sockets all stay open" + fix
	}
	w := gap + "Landlock denies TCP bind and connect only (a listen() without bind still gets a port); " +
		"UDP (DNS too), raw and other sockets stay open"
	if pol.Seccomp == profiles.SeccompNone {
		w += ", and without a seccomp filter TCP Fast Open and MPTCP connect past it"
	}
	return w + fix
}

// filterBuilt tells whether this build turns the seccomp profile name
// into a filter: with libseccomp any, without it the built-in ones, which
// are compiled at build time.
func filterBuilt(name string) bool {
	return seccomp.Enabled || seccomp.Precompiled(name)
}

// loopbackOnly tells whether this network namespace has no interface
// but loopback (an outer sandbox's --net none, unshare -n): --net none
// holds already, with or without a namespace of the program's own.
func loopbackOnly() bool {
	ifs, err := net.Interfaces()
	if err != nil || len(ifs) == 0 {
		return false
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			return false
		}
	}
	return true
}
