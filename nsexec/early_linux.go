//go:build linux && cgo && !omega_goinit

package nsexec

/*
#include <stdlib.h>
#include "cinit.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

var early sync.Mutex

// Prestarted hands over, at most once, the init stage the omega-run CLI's
// constructor started before the Go runtime (cinit_early.c): its pid and
// the pipe its spec goes through. It fits a launch in ns with keepFDs
// preserved fds (which must not reach the spec pipe's write end, kept
// high by cinit_early.c) when ns is user, mount, pid, ipc and uts and
// nothing else, and when fits says that the launch needs nothing a clone sets up (a
// cgroup) or the process changed (its working directory). One that does
// not fit is killed and reaped; ok is then false, as when there is none.
func Prestarted(ns Namespaces, keepFDs int, fits bool) (pid int, pipe *SpecPipe, ok bool) {
	early.Lock()
	defer early.Unlock()
	var cpid, fd C.int
	if C.omega_early_take(&cpid, &fd) == 0 {
		return 0, nil, false
	}
	if !fits || !ns.Enabled || ns.Net || 3+keepFDs > int(fd) {
		unix.Close(int(fd))
		killAndReap(int(cpid))
		return 0, nil, false
	}
	return int(cpid), newSpecPipe(int(fd), ns, keepFDs), true
}

// PrestartReady waits for the init stage the constructor started and
// tells whether it is ready to take: its user, mount, pid, ipc and uts
// namespaces made, its id maps written through a /proc that the helper
// found to be this pid namespace's. What sandbox's cheap signs of
// unavailable user namespaces ask is then answered.
func PrestartReady() bool {
	early.Lock()
	defer early.Unlock()
	return C.omega_early_ready() != 0
}

// DropPrestarted kills and reaps the init stage the constructor started,
// unless Prestarted took it: before the launcher execs in place or exits.
func DropPrestarted() {
	early.Lock()
	defer early.Unlock()
	C.omega_early_drop()
}

func killAndReap(pid int) {
	_ = unix.Kill(pid, unix.SIGKILL)
	for {
		if _, err := unix.Wait4(pid, nil, 0, nil); err != unix.EINTR {
			return
		}
	}
}

// earlyWanted is the constructor's decision for argv and env, for tests.
func earlyWanted(argv, env []string) bool {
	cArgv, cEnv := cStrings(argv), cStrings(env)
	defer freeStrings(cArgv)
	defer freeStrings(cEnv)
	return C.omega_early_wanted(C.int(len(argv)), &cArgv[0], &cEnv[0]) != 0
}

// earlyStart runs the CLI's constructor (omega_early_start) on argv and
// env laid out as the kernel does, env right after argv's NULL, in C
// memory; for tests. It tells whether it lent an environment slot.
func earlyStart(argv, env []string) bool {
	n := len(argv) + 1 + len(env) + 1
	vec := (*[1 << 20]*C.char)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof((*C.char)(nil)))))[:n:n]
	for i, s := range argv {
		vec[i] = C.CString(s)
	}
	for i, s := range env {
		vec[len(argv)+1+i] = C.CString(s)
	}
	C.omega_early_start(C.int(len(argv)), &vec[0], &vec[len(argv)+1])
	lent := C.omega_early_env_restore()
	for _, c := range vec {
		C.free(unsafe.Pointer(c))
	}
	C.free(unsafe.Pointer(&vec[0]))
	return lent != nil
}

// ctorArgs is the argv and envp the constructor got (walk false), or what
// cinit_args.c's walk finds now (walk true: on the main thread, before
// anything changed environ — a test's package initialisation), for tests;
// ok is false when there were none.
func ctorArgs(walk bool) (argv, env []string, ok bool) {
	var cArgv, cEnv **C.char
	var n C.int
	if walk {
		if C.omega_initial_args(&n, &cArgv, &cEnv) < 0 {
			n = -1
		}
	} else {
		n = C.omega_ctor_args(&cArgv, &cEnv)
	}
	if n < 0 {
		return nil, nil, false
	}
	for _, p := range unsafe.Slice(cArgv, int(n)) {
		argv = append(argv, C.GoString(p))
	}
	for p := cEnv; *p != nil; p = (**C.char)(unsafe.Add(unsafe.Pointer(p), unsafe.Sizeof(p))) {
		env = append(env, C.GoString(*p))
	}
	return argv, env, true
}

func cStrings(ss []string) []*C.char {
	out := make([]*C.char, len(ss)+1)
	for i, s := range ss {
		out[i] = C.CString(s)
	}
	return out
}

func freeStrings(cs []*C.char) {
	for _, c := range cs {
		C.free(unsafe.Pointer(c))
	}
}
