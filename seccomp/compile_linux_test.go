//go:build linux && cgo

package seccomp

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	libseccomp "github.com/seccomp/libseccomp-golang"
)

const dockerDefault = dockerDefaultPath

// nr is the number of a syscall on an ABI, for building test calls;
// "#462" is syscall 462, for syscalls libseccomp does not know.
func nr(t testing.TB, name string, a *archInfo) uint32 {
	t.Helper()
	if n, err := strconv.ParseUint(strings.TrimPrefix(name, "#"), 10, 32); err == nil {
		return uint32(n)
	}
	sa, err := libseccomp.GetArchFromString(a.name)
	if err != nil {
		t.Fatal(err)
	}
	n, err := libseccomp.GetSyscallFromNameByArch(name, sa)
	if err != nil || n < 0 {
		t.Fatalf("no syscall %s on %s: %v", name, a.name, err)
	}
	return uint32(n)
}

func mustCompile(t testing.TB, nameOrPath string) []insn {
	t.Helper()
	p, err := Resolve(nameOrPath)
	if err != nil {
		t.Fatal(err)
	}
	prog, warnings, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Logf("warning: %s", w)
	}
	insns, err := decode(prog.BPF, binary.NativeEndian)
	if err != nil {
		t.Fatal(err)
	}
	return insns
}

func TestCompileSmoke(t *testing.T) {
	for _, name := range []string{"default", "strict", dockerDefault} {
		prog := mustCompile(t, name)
		t.Logf("%s: %d instructions", name, len(prog))
	}
}

const (
	eperm  = retErrno | 1
	enosys = retErrno | 38
	allow  = retAllow

	tiocsti      = 0x5412
	tioclinux    = 0x541c
	tcgets       = 0x5401
	cloneNewUser = 0x10000000
	cloneNewNet  = 0x40000000
	sigchld      = 17
)

// TestCompiledSemantics runs the compiled programs in the interpreter
// (vm_test.go) for calls of every ABI, including those no test process
// could make, such as x32 syscalls.
func TestCompiledSemantics(t *testing.T) {
	amd64, x86, x32 := mustArchName(t, "amd64"), mustArchName(t, "x86"), mustArchName(t, "x32")
	type tc struct {
		arch    *archInfo
		syscall string
		args    []uint64
		want    ret
	}
	cases := map[string][]tc{
		"default": {
			{amd64, "getppid", nil, allow},
			{amd64, "reboot", nil, eperm},
			{amd64, "kexec_file_load", nil, eperm},
			{amd64, "bpf", nil, eperm},
			{amd64, "io_uring_setup", nil, enosys},
			{amd64, "clock_settime", nil, eperm},
			{amd64, "ioctl", []uint64{0, tiocsti}, eperm},
			{amd64, "ioctl", []uint64{0, 1<<32 | tiocsti}, eperm},
			{amd64, "ioctl", []uint64{0, 0xffffffff00000000 | tioclinux}, eperm},
			{amd64, "ioctl", []uint64{0, tcgets}, allow},
			{amd64, "ioctl", []uint64{0, 0x10000 | tiocsti}, allow},
			{amd64, "personality", []uint64{0xffffffff}, allow},
			{amd64, "personality", []uint64{0}, allow},
			{amd64, "personality", []uint64{0x20008}, allow},
			{amd64, "personality", []uint64{0x40000}, eperm},
			{amd64, "personality", []uint64{1 << 32}, eperm},
			{amd64, "unshare", []uint64{cloneNewUser}, allow},
			{amd64, "clone", []uint64{cloneNewUser | sigchld}, allow},
			{amd64, "clone3", nil, enosys},
			{amd64, "mount", nil, allow},
			{amd64, "socket", []uint64{40, 1}, retErrno | errEAFNOSUPPORT}, // AF_VSOCK
			{amd64, "socket", []uint64{1<<32 | 40, 0x80005}, retErrno | errEAFNOSUPPORT},
			{amd64, "socket", []uint64{2, 1}, allow},
			{amd64, "socketpair", []uint64{40, 1}, allow}, // vsock has none
			{x86, "getpid", nil, eperm},
			{x86, "ioctl", []uint64{0, tcgets}, eperm},
			{x32, "getpid", nil, eperm},
		},
		"strict": {
			{amd64, "getppid", nil, allow},
			{amd64, "reboot", nil, eperm},
			{amd64, "ioctl", []uint64{0, 1<<40 | tiocsti}, eperm},
			{amd64, "personality", []uint64{0x0400000}, eperm},
			{amd64, "unshare", []uint64{cloneNewUser}, eperm},
			{amd64, "unshare", []uint64{0x80}, eperm},  // CLONE_NEWTIME
			{amd64, "unshare", []uint64{0x400}, allow}, // CLONE_FILES
			{amd64, "clone", []uint64{sigchld}, allow},
			{amd64, "clone", []uint64{0x3d0f00}, allow}, // a thread
			{amd64, "clone", []uint64{cloneNewNet | sigchld}, eperm},
			{amd64, "clone3", nil, enosys},
			{amd64, "setns", nil, eperm},
			{amd64, "mount", nil, eperm},
			{amd64, "fsopen", nil, eperm},
			{amd64, "chroot", nil, eperm},
			{amd64, "socket", []uint64{17, 3}, eperm},         // AF_PACKET, SOCK_RAW
			{amd64, "socket", []uint64{2, 0x80003, 1}, eperm}, // AF_INET, SOCK_RAW|SOCK_CLOEXEC
			{amd64, "socket", []uint64{10, 0x803, 58}, eperm}, // AF_INET6, SOCK_RAW|SOCK_NONBLOCK
			{amd64, "socket", []uint64{2, 10}, eperm},         // AF_INET, SOCK_PACKET
			{amd64, "socket", []uint64{2, 0x80001}, allow},    // AF_INET, SOCK_STREAM|SOCK_CLOEXEC
			{amd64, "socket", []uint64{2, 2, 1}, allow},       // ICMP ping socket
			{amd64, "socket", []uint64{1, 1}, allow},          // AF_UNIX
			{amd64, "socket", []uint64{1<<32 | 40, 1}, eperm}, // AF_VSOCK
			{x86, "getpid", nil, eperm},
		},
		dockerDefault: {
			{amd64, "getppid", nil, allow},
			{amd64, "reboot", nil, eperm},
			{amd64, "#462", nil, eperm}, // mseal, unknown to libseccomp 2.5.4
			{amd64, "ioctl", []uint64{0, tiocsti}, eperm},
			{amd64, "ioctl", []uint64{0, 1<<32 | tiocsti}, eperm},
			{amd64, "ioctl", []uint64{0, tcgets}, allow},
			{amd64, "personality", []uint64{0x40000}, eperm},
			{amd64, "personality", []uint64{0xffffffff}, allow},
			{amd64, "clone", []uint64{cloneNewUser | sigchld}, eperm},
			{amd64, "clone", []uint64{sigchld}, allow},
			{amd64, "clone3", nil, enosys},
			{amd64, "ptrace", nil, allow}, // minKernel 4.8
			{x86, "getppid", nil, allow},
			{x86, "reboot", nil, eperm},
			{x86, "ioctl", []uint64{0, tiocsti}, eperm},
			{x86, "ioctl", []uint64{0, tcgets}, allow},
			{x32, "getppid", nil, allow},
			{x32, "ioctl", []uint64{0, 1<<32 | tioclinux}, eperm},
			{x32, "ioctl", []uint64{0, tcgets}, allow},
		},
	}
	for profile, calls := range cases {
		prog := mustCompile(t, profile)
		for _, c := range calls {
			in := call{nr: nr(t, c.syscall, c.arch), arch: c.arch}
			copy(in.args[:], c.args)
			got, err := run(prog, in)
			if err != nil {
				t.Fatalf("%s: %s %s%#x: %v", profile, c.arch.name, c.syscall, c.args, err)
			}
			if got != c.want {
				t.Errorf("%s: %s %s%#x = %s, want %s", profile, c.arch.name, c.syscall, c.args, describeRet(got), describeRet(c.want))
			}
		}
	}
}

// TestCrossArchSemantics runs programs compiled for other architectures,
// big-endian ones included, in the interpreter.
func TestCrossArchSemantics(t *testing.T) {
	type tc struct {
		syscall string
		args    []uint64
		want    ret
	}
	cases := []struct {
		profile, goarch string
		calls           []tc
	}{
		{"default", "s390x", []tc{
			{"getppid", nil, allow},
			{"reboot", nil, eperm},
			{"ioctl", []uint64{0, 1<<32 | tiocsti}, eperm},
			{"ioctl", []uint64{0, tcgets}, allow},
			{"personality", []uint64{0x40000}, eperm},
			{"personality", []uint64{0xffffffff}, allow},
		}},
		{"strict", "s390x", []tc{
			{"clone", []uint64{0, cloneNewUser}, eperm}, // s390: flags second
			{"clone", []uint64{cloneNewUser, 0}, allow},
			{"#359", []uint64{2, 0x80003}, eperm}, // socket: libseccomp names it for socketcall
			{"#359", []uint64{40, 1}, eperm},      // AF_VSOCK
			{"#359", []uint64{2, 1}, allow},
		}},
		{"default", "s390x", []tc{
			{"#359", []uint64{40, 1}, retErrno | errEAFNOSUPPORT},
			{"#359", []uint64{1<<32 | 40, 1}, retErrno | errEAFNOSUPPORT},
			{"#359", []uint64{2, 1}, allow},
		}},
		{"default", "mips", []tc{
			{"ioctl", []uint64{0, 0x5472}, eperm}, // MIPS TIOCSTI
			{"ioctl", []uint64{0, 0x5483}, eperm}, // MIPS TIOCLINUX
			{"ioctl", []uint64{0, tiocsti}, allow},
			{"personality", []uint64{8}, allow},
			{"personality", []uint64{0x400000}, eperm},
		}},
		{"default", "amd64", []tc{ // set-id bits (setid.go)
			{"chmod", []uint64{0, 0o4755}, eperm},
			{"chmod", []uint64{0, 0o2755}, eperm},
			{"chmod", []uint64{0, 0o755}, allow},
			{"fchmodat", []uint64{0, 0, 0o6700}, eperm},
			{"openat", []uint64{0, 0, 0x40 | 1, 0o4755}, eperm},   // O_CREAT|O_WRONLY
			{"openat", []uint64{0, 0, 0x410000, 0o2700}, eperm},   // O_TMPFILE
			{"openat", []uint64{0, 0, 0x40 | 1, 0o644}, allow},    // an ordinary create
			{"openat", []uint64{0, 0, 0, 0o4755}, allow},          // no create: mode unused
			{"mknodat", []uint64{0, 0, 0o100000 | 0o4755}, eperm}, // S_IFREG
			{"openat2", nil, enosys},
		}},
		{"default", "arm64", []tc{ // no chmod or open on arm64: the *at calls carry the rule
			{"fchmodat", []uint64{0, 0, 0o4755}, eperm},
			{"openat", []uint64{0, 0, 0x40, 0o4755}, eperm},
			{"openat", []uint64{0, 0, 0x40, 0o755}, allow},
		}},
		{"default", "mips", []tc{
			{"openat", []uint64{0, 0, 0x100, 0o4755}, eperm}, // MIPS O_CREAT
			{"openat", []uint64{0, 0, 0x40, 0o4755}, allow},  // 0x40 is not O_CREAT there
		}},
		{"strict", "arm64", []tc{
			{"unshare", []uint64{cloneNewUser}, eperm},
			{"clone", []uint64{cloneNewNet | sigchld}, eperm},
			{"clone3", nil, enosys},
			{"io_uring_enter", nil, enosys},
			{"getppid", nil, allow},
		}},
	}
	for _, c := range cases {
		arch := archForGOARCH(c.goarch)
		p, err := Resolve(c.profile)
		if err != nil {
			t.Fatal(err)
		}
		prog, _, err := compileFor(p, host{arch: arch})
		if err != nil {
			t.Fatal(err)
		}
		insns, err := decode(prog.BPF, arch.order())
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range c.calls {
			in := call{nr: nr(t, cl.syscall, arch), arch: arch}
			copy(in.args[:], cl.args)
			if got, err := run(insns, in); err != nil || got != cl.want {
				t.Errorf("%s/%s: %s%#x = %s (%v), want %s", c.profile, c.goarch, cl.syscall, cl.args, describeRet(got), err, describeRet(cl.want))
			}
		}
	}
}

// TestHotSyscallsCached: the syscalls programs make all the time must be
// ones the kernel's filter cache answers, so that they never run the
// filter. Only the syscalls a profile checks arguments of may miss it.
// openat is the one deliberate exception: creating a file with the
// set-user-ID bit must fail (setid.go), and only openat's arguments say
// so; the guard answers a non-creating open after one flag test.
func TestHotSyscallsCached(t *testing.T) {
	amd64 := mustArchName(t, "amd64")
	hot := []string{"read", "write", "close", "newfstatat", "fstat", "lseek", "mmap", "munmap",
		"mprotect", "brk", "futex", "getppid", "getpid", "rt_sigaction", "rt_sigprocmask", "sched_yield",
		"epoll_wait", "epoll_pwait", "nanosleep", "clock_gettime", "getrandom", "execve", "wait4",
		"pread64", "pwrite64", "readv", "writev", "fcntl", "getdents64", "statx", "pipe2", "dup3", "exit_group"}
	for profile, checked := range map[string][]string{
		"default":     {"ioctl", "personality", "openat", "fchmodat", "chmod"},
		"strict":      {"ioctl", "personality", "clone", "unshare", "socket", "openat", "fchmodat"},
		dockerDefault: {"ioctl", "personality", "clone", "socket", "openat", "fchmodat"},
	} {
		prog := mustCompile(t, profile)
		for _, name := range hot {
			if !constAllow(prog, call{nr: nr(t, name, amd64), arch: amd64}) {
				t.Errorf("%s: %s is not answered by the filter cache", profile, name)
			}
		}
		for _, name := range checked {
			if constAllow(prog, call{nr: nr(t, name, amd64), arch: amd64}) {
				t.Errorf("%s: %s is cached as allowed, but the profile checks its arguments", profile, name)
			}
		}
	}
}
