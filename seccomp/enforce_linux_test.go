//go:build linux && cgo

package seccomp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Probes each built-in profile denies, with the errno it documents.
var (
	deniedByDefault = map[string]unix.Errno{
		"init_module": unix.EPERM, "finit_module": unix.EPERM, "delete_module": unix.EPERM,
		"kexec_load": unix.EPERM, "kexec_file_load": unix.EPERM,
		"bpf": unix.EPERM, "perf_event_open": unix.EPERM,
		"keyctl": unix.EPERM, "add_key": unix.EPERM, "request_key": unix.EPERM,
		"userfaultfd": unix.EPERM, "reboot": unix.EPERM, "swapon": unix.EPERM, "swapoff": unix.EPERM,
		"acct": unix.EPERM, "settimeofday": unix.EPERM, "clock_settime": unix.EPERM,
		"adjtimex": unix.EPERM, "clock_adjtime": unix.EPERM,
		"syslog": unix.EPERM, "open_by_handle_at": unix.EPERM,
		"io_uring_setup": unix.ENOSYS, "io_uring_enter": unix.ENOSYS, "io_uring_register": unix.ENOSYS,
		"clone3":                         unix.ENOSYS,
		"personality(ADDR_NO_RANDOMIZE)": unix.EPERM, "personality(READ_IMPLIES_EXEC)": unix.EPERM,
		"ioctl(TIOCSTI)": unix.EPERM, "ioctl(TIOCSTI|1<<32)": unix.EPERM,
		"ioctl(TIOCLINUX)": unix.EPERM, "ioctl(TIOCLINUX|0xffff<<48)": unix.EPERM,
	}
	deniedByStrictOnly = map[string]unix.Errno{
		"unshare(CLONE_NEWUSER)": unix.EPERM, "unshare(CLONE_NEWNET)": unix.EPERM, "unshare(CLONE_NEWTIME)": unix.EPERM,
		"clone(CLONE_NEWUSER|CLONE_FS)": unix.EPERM, "clone(CLONE_NEWNS|CLONE_FS)": unix.EPERM,
		"setns": unix.EPERM,
		"mount": unix.EPERM, "umount2": unix.EPERM, "pivot_root": unix.EPERM, "move_mount": unix.EPERM,
		"open_tree": unix.EPERM, "fsopen": unix.EPERM, "fsmount": unix.EPERM, "fsconfig": unix.EPERM,
		"fspick": unix.EPERM, "mount_setattr": unix.EPERM, "chroot": unix.EPERM,
		"socket(AF_PACKET)": unix.EPERM, "socket(AF_INET, SOCK_RAW|SOCK_CLOEXEC)": unix.EPERM,
		"socket(AF_INET6, SOCK_RAW|SOCK_NONBLOCK)": unix.EPERM, "socket(AF_INET, SOCK_PACKET)": unix.EPERM,
	}
)

// TestDeniedCalls makes every probe with no filter, under "default" and
// under "strict". A denied probe must fail with the documented errno
// under the filter and with another result without one; every other
// probe must behave exactly as without a filter.
func TestDeniedCalls(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root: only then does the kernel itself let the probes through, proving it is the filter that denies them")
	}
	results := map[string]map[string]unix.Errno{}
	for _, profile := range []string{"none", "default", "strict"} {
		t.Run(profile, func(t *testing.T) { results[profile] = probeUnder(t, profile) })
	}
	if inChild() || t.Failed() {
		return
	}
	strict := map[string]unix.Errno{}
	for k, v := range deniedByDefault {
		strict[k] = v
	}
	for k, v := range deniedByStrictOnly {
		strict[k] = v
	}
	none := results["none"]
	for profile, denied := range map[string]map[string]unix.Errno{"default": deniedByDefault, "strict": strict} {
		got := results[profile]
		for _, p := range probes {
			want, isDenied := denied[p.name]
			switch {
			case !isDenied && got[p.name] != none[p.name]:
				t.Errorf("%s: %s = %s, want %s as without a filter", profile, p.name, errStr(got[p.name]), errStr(none[p.name]))
			case isDenied && got[p.name] != want:
				t.Errorf("%s: %s = %s, want %s", profile, p.name, errStr(got[p.name]), errStr(want))
			case isDenied && none[p.name] == want:
				t.Errorf("%s: without a filter too %s = %s: the probe proves nothing", profile, p.name, errStr(want))
			}
		}
	}
	var lines []string
	for _, p := range probes {
		lines = append(lines, p.name+": none "+errStr(none[p.name])+", default "+errStr(results["default"][p.name])+", strict "+errStr(results["strict"][p.name]))
	}
	t.Logf("probe results:\n%s", strings.Join(lines, "\n"))
}

func errStr(e unix.Errno) string {
	if e == 0 {
		return "ok"
	}
	return unix.ErrnoName(e)
}

// TestTTYDeniedInEveryProfile: TIOCSTI and TIOCLINUX fail with EPERM
// under any profile, custom ones that allow every ioctl included, with
// or without high bits in the request; other terminal ioctls work.
func TestTTYDeniedInEveryProfile(t *testing.T) {
	allowAll, allowIoctl := os.Getenv("ALLOW_ALL"), os.Getenv("ALLOW_IOCTL")
	if !inChild() {
		dir := t.TempDir()
		allowAll, allowIoctl = filepath.Join(dir, "allow-all.json"), filepath.Join(dir, "allow-ioctl.json")
		writeFile(t, allowAll, []byte(`{"defaultAction": "SCMP_ACT_ALLOW"}`))
		// A profile that tries to allow TIOCSTI outright, next to another
		// ioctl rule (docker-default allows every ioctl unconditionally).
		writeFile(t, allowIoctl, []byte(`{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
			{"names": ["ioctl"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 1, "value": 21522, "op": "SCMP_CMP_EQ"}]},
			{"names": ["ioctl"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 1, "value": 1234, "op": "SCMP_CMP_EQ"}]}]}`))
	}
	for _, profile := range []string{"default", "strict", dockerDefault, allowAll, allowIoctl} {
		t.Run(filepath.Base(profile), func(t *testing.T) {
			got := probeUnderEnv(t, profile, []string{"ALLOW_ALL=" + allowAll, "ALLOW_IOCTL=" + allowIoctl})
			if got == nil {
				return // the child
			}
			for _, p := range []string{"ioctl(TIOCSTI)", "ioctl(TIOCSTI|1<<32)", "ioctl(TIOCLINUX)", "ioctl(TIOCLINUX|0xffff<<48)"} {
				if got[p] != unix.EPERM {
					t.Errorf("%s = %s, want EPERM", p, errStr(got[p]))
				}
			}
			if got["ioctl(TCGETS)"] != 0 {
				t.Errorf("ioctl(TCGETS) = %s, want ok", errStr(got["ioctl(TCGETS)"]))
			}
		})
	}
}
