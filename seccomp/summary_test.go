package seccomp

import (
	"strings"
	"testing"
)

// TestSummarize: the summary explain prints by default counts each
// unconditional action's syscalls (naming two or fewer) and groups the
// argument-checked syscalls by what they stop, with no argument detail.
func TestSummarize(t *testing.T) {
	custom, err := Parse("custom.json", []byte(`{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
		{"names": ["mkdirat", "mkdir"], "action": "SCMP_ACT_ERRNO"},
		{"names": ["io_uring_setup", "io_uring_enter", "io_uring_register"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38},
		{"names": ["ptrace"], "action": "SCMP_ACT_KILL_PROCESS"},
		{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 17, "op": "SCMP_CMP_EQ"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	stub := ""
	if !Enabled {
		stub = "not enforced: this omega-run has no libseccomp (built without cgo)\n"
	}
	want := "custom.json; default action allow; fail with EPERM (mkdir, mkdirat), ENOSYS (3 syscalls), kill process (ptrace)\n" +
		"argument checks: profile rules on socket; set-id bits on chmod/creat/mknod/open (10 calls); TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE on ioctl\n" + stub
	if got := Summarize(custom); got != want {
		t.Errorf("Summarize(custom):\n%s\nwant:\n%s", got, want)
	}
	if got := Summarize(nil); got != "none (no filter)\n" {
		t.Errorf("Summarize(nil) = %q", got)
	}
	// The built-in profiles change; what the summary says of them is
	// checked loosely.
	for name, wants := range map[string][]string{
		"default": {"default (built in); default action allow; fail with EPERM (", "syscalls), ENOSYS (",
			"argument checks: profile rules on personality/socket; set-id bits on chmod/creat/mknod/open (10 calls); TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE on ioctl\n"},
		"strict": {"strict (built in); default action allow; ", "profile rules on clone/", "unshare; set-id bits"},
	} {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		got := Summarize(p)
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("Summarize(%s) lacks %q:\n%s", name, w, got)
			}
		}
		if n := strings.Count(got, "\n"); n > 3 || strings.Contains(got, "arg1") {
			t.Errorf("Summarize(%s): %d lines, or argument detail:\n%s", name, n, got)
		}
	}
}

// TestNameList: variants fold into the call they vary (f…, …at, …at2),
// and a long list is cut, with the count of calls.
func TestNameList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"ioctl"}, "ioctl"},
		{[]string{"chmod", "fchmod", "fchmodat", "fchmodat2", "open", "openat", "openat2"}, "chmod/open (7 calls)"},
		{[]string{"fchmod", "openat"}, "fchmod/openat"}, // nothing to fold into
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, "a/b/c/d/e/f/g/h/… (9 calls)"},
	} {
		if got := nameList(c.in); got != c.want {
			t.Errorf("nameList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSummarizeHostGuard(t *testing.T) {
	for _, c := range []struct {
		denyTCP, handedInet bool
		want, not           string
	}{
		{false, false, "in front, in the host's namespaces: prlimit64", "MSG_FASTOPEN"},
		{true, false, "in the host's namespaces: prlimit64 setting another process's limits; MSG_FASTOPEN", "handed"},
		// sandbox mode, --net none, an internet socket handed in: not the host's namespaces
		{true, true, "in front, handed an internet or unix socket, or an --allow-socket (the host's network): prlimit64", "namespaces:"},
	} {
		got := SummarizeHostGuard(c.denyTCP, c.handedInet)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("SummarizeHostGuard(%v, %v) = %q, want %q, not %q", c.denyTCP, c.handedInet, got, c.want, c.not)
		}
		if d := DescribeHostGuard(c.denyTCP, c.handedInet); strings.Contains(d, "host's pid and network namespaces") == c.handedInet {
			t.Errorf("DescribeHostGuard(%v, %v) = %q", c.denyTCP, c.handedInet, d)
		}
	}
}
