//go:build linux && amd64

// Command sysloop measures the cost of one system call in a tight loop,
// to compare seccomp filters:
//
//	sysloop [-label NAME] [-filter none|allow] [-syscall getppid|ioctl] [-n CALLS] [-rounds R]
//	sysloop -filter allow -exec PROG [ARGS...]
//
// -filter allow installs the cheapest filter there is, one instruction
// (RET ALLOW), before looping; -filter none (the default) installs
// nothing, so that the loop runs under whatever the caller installed (run
// it under omega-run to measure omega-run's filter).
//
// getppid has no arguments to inspect: with a filter whose answer for it
// does not depend on arguments the kernel's seccomp action cache (Linux
// 5.11+) skips the BPF program entirely. ioctl(fd, TCGETS) on /dev/null
// (ENOTTY) is a call whose arguments omega-run's filter inspects (the
// TIOCSTI/TIOCLINUX rule), so it shows the cost of actually running the
// BPF program.
//
// The loop runs on one locked OS thread. Each round times n calls; the
// output is one JSON object with the per-call nanoseconds of every round:
//
//	{"label":"...","syscall":"getppid","filter":"none","calls":N,"ns_per_call":[...]}
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

type result struct {
	Label     string    `json:"label"`
	Syscall   string    `json:"syscall"`
	Filter    string    `json:"filter"`
	Calls     int       `json:"calls"`
	NsPerCall []float64 `json:"ns_per_call"`
}

const (
	sysSeccomp           = 317 // amd64
	seccompSetModeFilter = 1
	bpfRet               = 0x06
	bpfK                 = 0x00
	seccompRetAllow      = 0x7fff0000
	prSetNoNewPrivs      = 38
	tcgets               = 0x5401
)

// sockFilter is struct sock_filter; the jumps are laid out, never set.
type sockFilter struct {
	code uint16
	_    uint8 // jt
	_    uint8 // jf
	k    uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

func main() {
	label := flag.String("label", "", "name of this measurement")
	filter := flag.String("filter", "none", "none, or allow: install a one-instruction allow-all filter first")
	call := flag.String("syscall", "getppid", "getppid or ioctl")
	n := flag.Int("n", 1_000_000, "calls per round")
	rounds := flag.Int("rounds", 5, "rounds")
	execArgs := flag.Bool("exec", false, "instead of looping, exec the remaining arguments under the filter")
	flag.Parse()

	runtime.LockOSThread()
	switch *filter {
	case "none":
	case "allow":
		if err := allowAll(); err != nil {
			fail(err)
		}
	default:
		fail(fmt.Errorf("unknown -filter %q", *filter))
	}
	if *execArgs {
		// From this locked thread, which alone carries the filter: the
		// floor any filter puts under a workload (bench/run.sh's find).
		args := flag.Args()
		if len(args) == 0 {
			fail(fmt.Errorf("-exec needs a program"))
		}
		path, err := exec.LookPath(args[0])
		if err != nil {
			fail(err)
		}
		fail(syscall.Exec(path, args, os.Environ()))
	}

	loop, err := syscallLoop(*call)
	if err != nil {
		fail(err)
	}

	loop(*n / 10) // warm up
	r := result{Label: *label, Syscall: *call, Filter: *filter, Calls: *n}
	for i := 0; i < *rounds; i++ {
		start := time.Now()
		loop(*n)
		r.NsPerCall = append(r.NsPerCall, float64(time.Since(start).Nanoseconds())/float64(*n))
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fail(err)
	}
}

// syscallLoop returns a loop that makes call n times, raw (no runtime
// entersyscall bookkeeping), so that the filter's cost is what varies.
func syscallLoop(call string) (func(n int), error) {
	switch call {
	case "getppid":
		return func(n int) {
			for i := 0; i < n; i++ {
				syscall.RawSyscall(syscall.SYS_GETPPID, 0, 0, 0)
			}
		}, nil
	case "ioctl":
		fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		var buf [64]byte
		arg := uintptr(unsafe.Pointer(&buf[0]))
		return func(n int) {
			for i := 0; i < n; i++ {
				syscall.RawSyscall(syscall.SYS_IOCTL, uintptr(fd), tcgets, arg)
			}
		}, nil
	}
	return nil, fmt.Errorf("unknown -syscall %q", call)
}

// allowAll installs a seccomp filter of one instruction, RET ALLOW, on
// this thread.
func allowAll() error {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	insns := []sockFilter{{code: bpfRet | bpfK, k: seccompRetAllow}}
	prog := sockFprog{len: uint16(len(insns)), filter: &insns[0]}
	if _, _, e := syscall.RawSyscall(sysSeccomp, seccompSetModeFilter, 0, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return fmt.Errorf("seccomp(SET_MODE_FILTER): %w", e)
	}
	runtime.KeepAlive(insns)
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sysloop:", err)
	os.Exit(1)
}
