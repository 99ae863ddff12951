package landlock

import (
	"fmt"
	"strings"
)

// feature is one thing Landlock enforces from a given ABI version on.
type feature struct {
	abi  int
	what string
	// net marks features that matter only with --net none.
	net bool
}

// features lists, per ABI version, what omega-run relies on. Index order
// is ABI order; a test checks it.
var features = []feature{
	{abi: 1, what: "write confinement (Landlock is unavailable: nothing outside the writable set is protected from writes)"},
	{abi: 2, what: "REFER: every rename or link into another directory fails (EXDEV), in the writable set too; mv copies instead"},
	{abi: 3, what: "truncation outside the writable set (TRUNCATE)"},
	{abi: 4, what: "TCP bind/connect denial for --net none", net: true},
	{abi: 5, what: "ioctl on device files outside the allowed devices (IOCTL_DEV)"},
	{abi: 6, what: "signal and abstract unix socket scoping"},
}

// WantABI is the Landlock ABI at which everything omega-run asks for is
// enforced.
const WantABI = 6

// Warnings names what a kernel with Landlock ABI abi does not enforce of
// r, worst first. It is pure, so every kernel can be simulated.
func Warnings(abi int, r Rules) []string {
	if abi < 1 {
		why := "Landlock is unavailable (kernel older than 5.13; the landlock LSM not enabled at boot: add lsm=landlock,... " +
			"to the kernel command line; or its calls refused by a seccomp filter or LSM around omega-run, as in some containers)"
		if r.WritesOnly { // sandbox mode: its read-only root still holds
			return []string{why + ": only the read-only mounts stop writes outside the writable set; what the program is handed " +
				"from the host (stdin from a file, --preserve-fds) is not confined"}
		}
		return []string{why + ": writes outside the writable set are NOT prevented"}
	}
	var out []string
	for _, f := range features {
		if abi >= f.abi || (f.net && !r.DenyTCP) {
			continue
		}
		out = append(out, fmt.Sprintf("Landlock ABI %d lacks %s (needs ABI %d)", abi, f.what, f.abi))
	}
	return out
}

// KernelWarnings is Warnings for a kernel of ABI abi that go-landlock,
// and Plan after it, use as ABI effective: an ABI 6 or later kernel
// that does not report the fix of the signal scoping erratum counts as
// ABI 5, without signal and abstract unix socket scoping. Warnings(abi)
// said nothing of that, and an rx program could signal the user's
// processes (TestFallbackSignalScopingErratum). It is pure.
func KernelWarnings(abi, effective int, r Rules) []string {
	out := Warnings(effective, r)
	if effective >= abi {
		return out
	}
	from := fmt.Sprintf("Landlock ABI %d lacks", effective)
	to := fmt.Sprintf("Landlock ABI %d without the fix of its signal scoping erratum (Linux 6.15, backported to later 6.12 LTS "+
		"kernels; a newer kernel has it) is used as ABI %d, which lacks", abi, effective)
	for i, w := range out {
		out[i] = strings.Replace(w, from, to, 1)
	}
	return out
}

// rights names what each ABI version added, in order.
var rights = [][]string{
	1: {"execute", "write_file", "read_file", "read_dir", "remove_dir", "remove_file", "make_char", "make_dir", "make_reg", "make_sock", "make_fifo", "make_block", "make_sym"},
	2: {"refer"},
	3: {"truncate"},
	4: {"net:bind_tcp", "net:connect_tcp"},
	5: {"ioctl_dev"},
	6: {"scope:abstract_unix_socket", "scope:signal"},
	7: {"audit logging flags"},
	8: {"thread sync (TSYNC)"},
	9: {"resolve_unix"},
}

// Enforced lists the rights and scopes a kernel with this ABI enforces.
func Enforced(abi int) []string {
	var out []string
	for v := 1; v <= abi && v < len(rights); v++ {
		out = append(out, rights[v]...)
	}
	return out
}
