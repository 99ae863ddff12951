package seccomp

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	cases := map[string][]string{
		"none": {"seccomp: none (no filter)"},
		"default": {
			"seccomp profile: default (built in)",
			"default action: allow",
			"every call of another ABI (e.g. i386 int 0x80 on amd64): fail with EPERM",
			"fail with EPERM (32 syscalls):", "kexec_load", "userfaultfd",
			"fail with ENOSYS (4 syscalls):\n  clone3 io_uring_enter io_uring_register io_uring_setup",
			"  ioctl\n    fail with EPERM if arg1 & 0xffffffff == 0x5412  (TIOCSTI, added to every profile)",
			"    allow if arg0 == 0xffffffff\n    otherwise fail with EPERM",
			// A guard without arguments decides alone: no "if", no "otherwise".
			"  openat2\n    fail with ENOSYS always  (openat2's mode",
		},
		"strict": {
			"fail with ENOSYS (4 syscalls):\n  clone3",
			"    fail with EPERM if arg0 & 0x80 == 0x80\n    otherwise allow",
			"    fail with EPERM if arg0 == 0x2 and arg1 & 0xf == 0x3",
		},
		dockerDefaultPath: {
			"default action: fail with EPERM",
			// It lists x86, whose int 0x80 is then no other ABI.
			"architectures: amd64, x86, x32; every call of another ABI: ",
			"fail with ENOSYS (1 syscall):\n  clone3",
			"  clone\n    allow if arg0 & 0x7e020000 == 0x0\n    otherwise fail with EPERM",
		},
	}
	for name, want := range cases {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		got := Describe(p)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("Describe(%s) lacks %q:\n%s", name, w, got)
			}
		}
	}
}

func TestDescribeRet(t *testing.T) {
	for r, want := range map[ret]string{
		retAllow: "allow", retErrno | 1: "fail with EPERM", retErrno | 38: "fail with ENOSYS",
		retErrno | 99: "fail with errno 99", retKillProcess: "kill process", retKillThread: "kill thread",
		retTrap: "trap (SIGSYS)", retTrace | 7: "trace (7)", retLog: "allow and log",
	} {
		if got := describeRet(r); got != want {
			t.Errorf("describeRet(%#x) = %q, want %q", uint32(r), got, want)
		}
	}
}
