//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// landlockCreateRulesetVersion and ...Errata are the flags of the two
// queries landlock_create_ruleset answers without a ruleset.
const (
	landlockCreateRulesetVersion = 1
	landlockCreateRulesetErrata  = 2
)

// fakeABI simulates an older kernel's Landlock: "landlock-abi N[:ERRATA]
// PROGRAM ARGS..." runs PROGRAM, and every landlock_create_ruleset of it
// and its descendants goes to a seccomp user-notification supervisor
// here, which answers the version query with N, the errata query with
// ERRATA where given (0: an ABI 6 kernel without the signal scoping fix),
// refuses what a kernel of ABI N would refuse (oldKernelRefuses: rights,
// rule types, scopes and flags it does not know), and lets every other
// call through to the real kernel. Before, it let a ruleset built for a
// later ABI through to this kernel, which took it. A ruleset built for ABI N then gets ABI N's
// semantics: rights it does not handle are not checked, and without REFER
// handled the kernel refuses cross-directory renames and links, as ABI 1.
func fakeABI(args []string) error {
	abiS, errataS, fixed := strings.Cut(args[0], ":")
	abi, err := strconv.Atoi(abiS)
	errata := -1 // the real kernel's
	if fixed {
		errata, err = strconv.Atoi(errataS)
	}
	if err != nil || abi < 1 {
		return fmt.Errorf("bad ABI %q", args[0])
	}
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_LANDLOCK_CREATE_RULESET, Jt: 2, Jf: 0},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_LANDLOCK_ADD_RULE, Jt: 1, Jf: 0},
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_LANDLOCK_RESTRICT_SELF, Jt: 0, Jf: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_USER_NOTIF},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fd, cmd, err := startSupervised(filter, args[1:])
	if err != nil {
		return err
	}
	go answerVersion(fd, int64(abi), int64(errata))
	cmd.Wait()
	os.Exit(cmd.ProcessState.ExitCode())
	return nil
}

// startSupervised installs filter with a user-notification listener on
// this thread only (the child forked from it inherits it; the
// supervisor's threads do not need it) and starts args: the listener's
// fd and the started command.
func startSupervised(filter []unix.SockFilter, args []string) (int, *exec.Cmd, error) {
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, nil, err
	}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return -1, nil, fmt.Errorf("seccomp: %w", errno)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return int(fd), cmd, cmd.Start()
}

// answerVersion is the supervisor's loop; it ends with the process.
// errata below 0 leaves the errata query to the real kernel.
func answerVersion(fd int, abi, errata int64) {
	for {
		var n seccompNotif
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n)))
		if errno != 0 {
			continue // EINTR, or ENOENT: the caller died meanwhile
		}
		resp := seccompNotifResp{id: n.id}
		query := n.nr == unix.SYS_LANDLOCK_CREATE_RULESET && n.args[0] == 0 && n.args[1] == 0
		switch {
		case query && n.args[2] == landlockCreateRulesetVersion:
			resp.val = abi
		case query && n.args[2] == landlockCreateRulesetErrata && errata >= 0:
			resp.val = errata
		case query && n.args[2] == landlockCreateRulesetErrata:
			resp.flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		case n.nr == unix.SYS_LANDLOCK_CREATE_RULESET && n.args[2] != 0:
			resp.error = -int32(unix.EINVAL) // a flag this ABI does not know
		default:
			if errno := oldKernelRefuses(&n, int(abi)); errno != 0 {
				resp.error = -int32(errno)
				break
			}
			resp.flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		}
		unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}
