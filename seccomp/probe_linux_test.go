//go:build linux && cgo

package seccomp

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A probe makes one syscall with harmless arguments: bad pointers, bad
// fds or invalid flags, so that without a filter it fails with EFAULT,
// EBADF or EINVAL (or succeeds harmlessly, in a throwaway process).
// Under a filter that denies it, it fails with the filter's errno; the
// difference proves the filter did it (bubblewrap's try-syscall.c).
type probe struct {
	name string
	call func(tty int) unix.Errno
}

const bad = 1 // a pointer the kernel cannot read

func sys(nr uintptr, args ...uintptr) unix.Errno {
	var a [6]uintptr
	copy(a[:], args)
	r, _, errno := unix.Syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5])
	if errno == 0 && nr == unix.SYS_SOCKET {
		unix.Close(int(r))
	}
	return errno
}

func callWith(nr uintptr, args ...uintptr) func(int) unix.Errno {
	return func(int) unix.Errno { return sys(nr, args...) }
}

func ttyIoctl(req uint64) func(int) unix.Errno {
	return func(tty int) unix.Errno {
		c := byte(0) // TIOCSTI: a NUL into our own pty; TIOCLINUX: subcode 0
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(tty), uintptr(req), uintptr(unsafe.Pointer(&c)))
		return errno
	}
}

const flagsAll = 0xffffffff

var probes = []probe{
	{"init_module", callWith(unix.SYS_INIT_MODULE, 0, 0, 0)},
	{"finit_module", callWith(unix.SYS_FINIT_MODULE, ^uintptr(0), bad, 0)},
	{"delete_module", callWith(unix.SYS_DELETE_MODULE, 0, 0)},
	{"kexec_load", callWith(unix.SYS_KEXEC_LOAD, 0, 0, 0, flagsAll)},
	{"kexec_file_load", callWith(unix.SYS_KEXEC_FILE_LOAD, ^uintptr(0), ^uintptr(0), 0, 0, flagsAll)},
	{"bpf", callWith(unix.SYS_BPF, 0xffff, 0, 0)},
	{"perf_event_open", callWith(unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0)},
	{"keyctl", callWith(unix.SYS_KEYCTL, 0xffff)},
	{"add_key", callWith(unix.SYS_ADD_KEY, 0, 0, 0, 0, 0)},
	{"request_key", callWith(unix.SYS_REQUEST_KEY, 0, 0, 0, 0)},
	{"userfaultfd", callWith(unix.SYS_USERFAULTFD, flagsAll)},
	{"reboot", callWith(unix.SYS_REBOOT, 0, 0, 0, 0)}, // bad magic: EINVAL
	{"swapon", callWith(unix.SYS_SWAPON, 0, flagsAll)},
	{"swapoff", callWith(unix.SYS_SWAPOFF, 0)},
	{"acct", callWith(unix.SYS_ACCT, bad)}, // never NULL: that turns accounting off
	{"settimeofday", callWith(unix.SYS_SETTIMEOFDAY, bad, 0)},
	{"clock_settime", callWith(unix.SYS_CLOCK_SETTIME, unix.CLOCK_MONOTONIC, bad)},
	{"adjtimex", callWith(unix.SYS_ADJTIMEX, bad)},
	{"clock_adjtime", callWith(unix.SYS_CLOCK_ADJTIME, unix.CLOCK_REALTIME, bad)},
	{"syslog", callWith(unix.SYS_SYSLOG, 0xffff, 0, 0)},
	{"open_by_handle_at", callWith(unix.SYS_OPEN_BY_HANDLE_AT, ^uintptr(0), bad, 0)},
	{"io_uring_setup", callWith(unix.SYS_IO_URING_SETUP, 0, bad)},
	{"io_uring_enter", callWith(unix.SYS_IO_URING_ENTER, ^uintptr(0), 0, 0, 0, 0, 0)},
	{"io_uring_register", callWith(unix.SYS_IO_URING_REGISTER, ^uintptr(0), 0, 0, 0)},
	{"personality(ADDR_NO_RANDOMIZE)", callWith(unix.SYS_PERSONALITY, 0x0040000)},
	{"personality(READ_IMPLIES_EXEC)", callWith(unix.SYS_PERSONALITY, 0x0400000)},
	{"ioctl(TIOCSTI)", ttyIoctl(unix.TIOCSTI)},
	{"ioctl(TIOCSTI|1<<32)", ttyIoctl(1<<32 | unix.TIOCSTI)},
	{"ioctl(TIOCLINUX)", ttyIoctl(unix.TIOCLINUX)},
	{"ioctl(TIOCLINUX|0xffff<<48)", ttyIoctl(0xffff<<48 | unix.TIOCLINUX)},
	{"clone3", callWith(unix.SYS_CLONE3, 0, 0)},
	// strict only
	{"unshare(CLONE_NEWUSER)", callWith(unix.SYS_UNSHARE, unix.CLONE_NEWUSER)},
	{"unshare(CLONE_NEWNET)", callWith(unix.SYS_UNSHARE, unix.CLONE_NEWNET)},
	{"unshare(CLONE_NEWTIME)", callWith(unix.SYS_UNSHARE, unix.CLONE_NEWTIME)},
	{"clone(CLONE_NEWUSER|CLONE_FS)", callWith(unix.SYS_CLONE, unix.CLONE_NEWUSER|unix.CLONE_FS)}, // EINVAL: never forks
	{"clone(CLONE_NEWNS|CLONE_FS)", callWith(unix.SYS_CLONE, unix.CLONE_NEWNS|unix.CLONE_FS)},
	{"setns", callWith(unix.SYS_SETNS, ^uintptr(0), 0)},
	{"mount", callWith(unix.SYS_MOUNT, 0, 0, 0, 0, 0)},
	{"umount2", callWith(unix.SYS_UMOUNT2, bad, 0xffff)},
	{"pivot_root", callWith(unix.SYS_PIVOT_ROOT, bad, bad)},
	{"move_mount", callWith(unix.SYS_MOVE_MOUNT, ^uintptr(0), bad, ^uintptr(0), bad, flagsAll)},
	{"open_tree", callWith(unix.SYS_OPEN_TREE, ^uintptr(0), bad, flagsAll)},
	{"fsopen", callWith(unix.SYS_FSOPEN, bad, flagsAll)},
	{"fsmount", callWith(unix.SYS_FSMOUNT, ^uintptr(0), flagsAll, 0)},
	{"fsconfig", callWith(unix.SYS_FSCONFIG, ^uintptr(0), 0xffff, 0, 0, 0)},
	{"fspick", callWith(unix.SYS_FSPICK, ^uintptr(0), bad, flagsAll)},
	{"mount_setattr", callWith(unix.SYS_MOUNT_SETATTR, ^uintptr(0), bad, flagsAll, 0, 0)},
	{"chroot", callWith(unix.SYS_CHROOT, bad)},
	{"socket(AF_PACKET)", callWith(unix.SYS_SOCKET, unix.AF_PACKET, unix.SOCK_RAW, 0)},
	{"socket(AF_INET, SOCK_RAW|SOCK_CLOEXEC)", callWith(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.IPPROTO_ICMP)},
	{"socket(AF_INET6, SOCK_RAW|SOCK_NONBLOCK)", callWith(unix.SYS_SOCKET, unix.AF_INET6, unix.SOCK_RAW|unix.SOCK_NONBLOCK, unix.IPPROTO_ICMPV6)},
	{"socket(AF_INET, SOCK_PACKET)", callWith(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_PACKET, 0)},
	// allowed everywhere: the same result with and without a filter
	{"getppid", callWith(unix.SYS_GETPPID)},
	{"personality(query)", callWith(unix.SYS_PERSONALITY, 0xffffffff)},
	{"personality(PER_LINUX)", callWith(unix.SYS_PERSONALITY, 0)},
	{"ioctl(TCGETS)", func(tty int) unix.Errno { _, err := unix.IoctlGetTermios(tty, unix.TCGETS); return errnoOf(err) }},
	{"socket(AF_INET, SOCK_STREAM)", callWith(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)},
	{"socket(AF_UNIX)", callWith(unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM, 0)},
	{"unshare(CLONE_FILES)", callWith(unix.SYS_UNSHARE, unix.CLONE_FILES)},
}

func errnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	return err.(syscall.Errno)
}

// runProbes makes every probe on a thread of its own, which dies with
// what the probes change of it: unshare(CLONE_FILES) gives it a file
// table of its own, personality and unshare(CLONE_NEWNET) act on it
// alone.
func runProbes(t *testing.T) map[string]unix.Errno {
	done := make(chan map[string]unix.Errno)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with us
		done <- probeAll(t)
	}()
	return <-done
}

// probeAll opens a pty (its slave is the terminal a TIOCSTI attack would
// type into) and makes every probe, keyed by name.
func probeAll(t *testing.T) map[string]unix.Errno {
	master, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer unix.Close(master)
	tty, err := openSlave(master)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer unix.Close(tty)
	got := map[string]unix.Errno{}
	for _, p := range probes {
		got[p.name] = p.call(tty)
	}
	return got
}

func openSlave(master int) (int, error) {
	if err := unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0); err != nil {
		return -1, err
	}
	n, err := unix.IoctlGetInt(master, unix.TIOCGPTN)
	if err != nil {
		return -1, err
	}
	return unix.Open(fmt.Sprintf("/dev/pts/%d", n), unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
}

const probeMarker = "PROBES: "

// probeUnder runs the probes in a subprocess under a profile; nil in
// the child.
func probeUnder(t *testing.T, profile string) map[string]unix.Errno {
	t.Helper()
	return probeUnderEnv(t, profile, nil)
}

func probeUnderEnv(t *testing.T, profile string, env []string) map[string]unix.Errno {
	t.Helper()
	out, parent := inSubprocess(t, env, func() {
		install(t, profile)
		b, _ := json.Marshal(runProbes(t))
		fmt.Printf("\n%s%s\n", probeMarker, b)
	})
	if !parent {
		return nil
	}
	_, line, ok := strings.Cut(out, "\n"+probeMarker)
	if !ok {
		t.Fatalf("no probe results:\n%s", out)
	}
	line, _, _ = strings.Cut(line, "\n")
	got := map[string]unix.Errno{}
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatal(err)
	}
	return got
}
