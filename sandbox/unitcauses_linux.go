package sandbox

import (
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// What a systemd unit's hardening does to the sandbox's user namespace
// (README, Servers): both refuse it with EPERM, as a disabled sysctl
// does, and neither sysctl helps then.
const (
	// rootNoCaps: root may map uid 0 into a user namespace only with
	// CAP_SETFCAP, and more ids than its own only with CAP_SETUID and
	// CAP_SETGID.
	rootNoCaps = "root without CAP_SETUID, CAP_SETGID and CAP_SETFCAP cannot map its ids into them " +
		"(a unit's CapabilityBoundingSet= leaves those out)"
	rootNoCapsFix = "add CAP_SETUID CAP_SETGID CAP_SETFCAP to CapabilityBoundingSet=, or run the unit as another user (User=)"
	// filterRefused: a filter that fails clone and unshare with
	// CLONE_NEW* flags (Docker's default profile does it too).
	filterRefused    = "a seccomp filter around omega-run refuses them (systemd's RestrictNamespaces=, a container's seccomp profile)"
	filterRefusedFix = "allow them in that filter (systemd: RestrictNamespaces=user mnt pid ipc uts, and net for --net none)"
)

// refusedByUnit names what refused the sandbox's user namespace with
// EPERM when it is no sysctl: root without the capabilities to map its
// ids, or a seccomp filter around omega-run; "" otherwise.
func refusedByUnit() string {
	if outerSandbox() != "" { // usernsWarning says why, in its words
		return ""
	}
	if os.Getuid() == 0 && !hasCaps(unix.CAP_SETUID, unix.CAP_SETGID, unix.CAP_SETFCAP) {
		return rootNoCaps
	}
	if seccompFiltered() && usernsUnavailable() == "" && filterRefusesNamespaces() {
		return filterRefused
	}
	return ""
}

// probeNamespaces are all the namespaces a launch may ask clone for, with
// CLONE_FS, which the kernel refuses with them (EINVAL) before it
// creates anything or asks an LSM: only a filter in front of the call
// answers EPERM to it. (Filters refuse a namespace flag wherever it is
// set, so the superset meets every one that refused the launch's.)
const probeNamespaces = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUTS | unix.CLONE_NEWNET | unix.CLONE_NEWCGROUP | unix.CLONE_FS

// filterRefusesNamespaces tells whether the filter around omega-run
// answers EPERM to a clone with namespace flags, or to every clone3 (the
// launch's with a cgroup; a size of 0 is EINVAL to the kernel): the
// EPERM a launch met may instead be an LSM's (BPF LSM's userns_create,
// say) or a chroot's, where the filter's fix would not help.
func filterRefusesNamespaces() bool {
	cloneErr, clone3Err := probeClones()
	return cloneErr == unix.EPERM || clone3Err == unix.EPERM
}

// probeClones makes the two calls, which the kernel refuses with EINVAL.
func probeClones() (cloneErr, clone3Err unix.Errno) {
	a0, a1 := uintptr(probeNamespaces|unix.SIGCHLD), uintptr(0)
	if runtime.GOARCH == "s390x" { // clone's first two arguments are swapped there
		a0, a1 = a1, a0
	}
	_, _, cloneErr = unix.RawSyscall(unix.SYS_CLONE, a0, a1, 0)
	_, _, clone3Err = unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
	return cloneErr, clone3Err
}

// unitFix is the fix for a refusedByUnit cause, or "".
func unitFix(cause string) string {
	switch {
	case strings.HasSuffix(cause, rootNoCaps):
		return rootNoCapsFix
	case strings.HasSuffix(cause, filterRefused):
		return filterRefusedFix
	}
	return ""
}

// hasCaps tells whether this process has every one of caps in its
// effective set; unknown counts as yes.
func hasCaps(caps ...int) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return true
	}
	for _, c := range caps {
		if data[c/32].Effective&(1<<(c%32)) == 0 {
			return false
		}
	}
	return true
}

// seccompFiltered tells whether a seccomp filter is installed on this
// process.
func seccompFiltered() bool {
	v, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil && v == unix.SECCOMP_MODE_FILTER
}
