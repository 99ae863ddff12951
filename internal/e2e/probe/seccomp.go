//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompExec simulates a kernel or LSM that refuses some system calls:
// "seccomp-exec NR[:ARG0]=ERRNO[,...] PROGRAM ARGS..." makes each listed
// call (with ARG0: only where its first argument is that) fail with its
// errno, then execs the program (the filter is inherited by everything
// it starts). ERRNO "kill" kills the process instead (SIGSYS), as
// systemd's SystemCallFilter= does by default.
func seccompExec(args []string) error {
	var filter []unix.SockFilter
	stmt := func(code uint16, k uint32) { filter = append(filter, unix.SockFilter{Code: code, K: k}) }
	jeq := func(k uint32, skip uint8) {
		filter = append(filter, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: 0, Jf: skip})
	}
	for _, rule := range strings.Split(args[0], ",") {
		call, errS, _ := strings.Cut(rule, "=")
		nrS, argS, withArg := strings.Cut(call, ":")
		nr, err1 := strconv.Atoi(nrS)
		errno, err2 := strconv.Atoi(errS)
		action := unix.SECCOMP_RET_ERRNO | uint32(errno)
		if errS == "kill" {
			action, err2 = unix.SECCOMP_RET_KILL_PROCESS, nil
		}
		arg, err3 := 0, error(nil)
		if withArg {
			arg, err3 = strconv.Atoi(argS)
		}
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("bad rule %q", rule)
		}
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 0) // seccomp_data.nr
		if withArg {
			jeq(uint32(nr), 3)
			stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 16) // args[0], its low half (little-endian)
			jeq(uint32(arg), 1)
		} else {
			jeq(uint32(nr), 1)
		}
		stmt(unix.BPF_RET|unix.BPF_K, action)
	}
	stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW)
	return filteredExec(filter, args[1:])
}

// filteredExec installs filter on this process and execs argv (looked up
// in PATH); the filter is inherited by everything the program starts.
func filteredExec(filter []unix.SockFilter, argv []string) error {
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	return syscall.Exec(path, argv, os.Environ())
}

// jeq jumps jt ahead where the accumulator is nr, else jf.
func jeq(nr uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: nr, Jt: jt, Jf: jf}
}

// ret returns action k.
func ret(k uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k} }

// noForkExec simulates a system that refuses new processes (an LSM, a
// seccomp filter around the caller) but not threads: "no-fork PROGRAM
// ARGS..." makes clone without CLONE_THREAD fail with EPERM, fork and
// vfork too, and clone3 ENOSYS (Go falls back to clone), then execs.
func noForkExec(args []string) error {
	const cloneThread = 0x10000
	deny := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	f := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // nr
		jeq(unix.SYS_CLONE3, 0, 1), ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)),
	}
	for _, nr := range forkSyscalls { // fork and vfork, where they exist
		f = append(f, jeq(nr, 0, 1), ret(deny))
	}
	f = append(f, jeq(unix.SYS_CLONE, 0, 3),
		unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low half (little-endian)
		unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, K: cloneThread, Jt: 1, Jf: 0},
		ret(deny), ret(unix.SECCOMP_RET_ALLOW))
	return filteredExec(f, args)
}

// withSignals execs a program with signals ignored and blocked as a
// caller might leave them: "with-signals IGNORED BLOCKED PROGRAM ARGS...",
// each a comma-separated list of signal numbers ("-" for none).
func withSignals(args []string) error {
	nums := func(list string) []syscall.Signal {
		var out []syscall.Signal
		for _, f := range strings.Split(list, ",") {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, syscall.Signal(n))
			}
		}
		return out
	}
	for _, sig := range nums(args[0]) {
		signal.Ignore(sig)
	}
	runtime.LockOSThread()
	var set unix.Sigset_t
	for _, sig := range nums(args[1]) {
		set.Val[(sig-1)/64] |= 1 << ((sig - 1) % 64)
	}
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &set, nil); err != nil {
		return err
	}
	return syscall.Exec(args[2], args[2:], os.Environ())
}

// restrictNamespaces simulates systemd's RestrictNamespaces=yes:
// "restrict-namespaces PROGRAM ARGS..." makes clone and unshare with any
// CLONE_NEW* flag, and every setns, fail with EPERM, and clone3 (whose
// flags a filter cannot read) with ENOSYS, then execs.
func restrictNamespaces(args []string) error {
	const newFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
		unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWTIME
	deny := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	f := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // nr
		jeq(unix.SYS_CLONE3, 0, 1), ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)),
		jeq(unix.SYS_SETNS, 0, 1), ret(deny),
		jeq(unix.SYS_CLONE, 1, 0),
		jeq(unix.SYS_UNSHARE, 0, 3),
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low half (little-endian)
		{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, K: newFlags, Jt: 0, Jf: 1},
		ret(deny),
		ret(unix.SECCOMP_RET_ALLOW),
	}
	return filteredExec(f, args)
}

// refuseUserns simulates a kernel or filter that refuses new user
// namespaces with one errno: "refuse-userns ERRNO PROGRAM ARGS..." makes
// clone and unshare with CLONE_NEWUSER fail with ERRNO (ENOSPC for a used
// up user.max_user_namespaces, EPERM for an LSM or a sysctl, EINVAL for a
// kernel built without them), and clone3 ENOSYS, then execs.
func refuseUserns(args []string) error {
	errno, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("bad errno %q", args[0])
	}
	deny := unix.SECCOMP_RET_ERRNO | uint32(errno)
	f := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // nr
		jeq(unix.SYS_CLONE3, 0, 1), ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)),
		jeq(unix.SYS_CLONE, 1, 0),
		jeq(unix.SYS_UNSHARE, 0, 3),
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low half (little-endian)
		{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, K: unix.CLONE_NEWUSER, Jt: 0, Jf: 1},
		ret(deny),
		ret(unix.SECCOMP_RET_ALLOW),
	}
	return filteredExec(f, args[1:])
}

// refuseCapbsetDrop simulates a filter that answers
// prctl(PR_CAPBSET_DROP, …) with one errno (EINVAL: what the kernel says
// past its last capability), then execs.
func refuseCapbsetDrop(args []string) error {
	errno, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("bad errno %q", args[0])
	}
	f := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // nr
		jeq(unix.SYS_PRCTL, 0, 3),
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low half (little-endian)
		jeq(unix.PR_CAPBSET_DROP, 0, 1),
		ret(unix.SECCOMP_RET_ERRNO | uint32(errno)),
		ret(unix.SECCOMP_RET_ALLOW),
	}
	return filteredExec(f, args[1:])
}
