package landlock

import (
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// The tables are indexed by ABI version.
func TestTablesInABIOrder(t *testing.T) {
	for i := 1; i < len(features); i++ {
		if features[i].abi <= features[i-1].abi {
			t.Errorf("features[%d] (ABI %d) is not after ABI %d", i, features[i].abi, features[i-1].abi)
		}
	}
	if features[len(features)-1].abi != WantABI {
		t.Errorf("WantABI = %d, last feature needs %d", WantABI, features[len(features)-1].abi)
	}
	if len(rights[0]) != 0 || len(rights[1]) != 13 {
		t.Errorf("rights table: ABI 1 has 13 rights, got %d", len(rights[1]))
	}
}

// Warnings simulates every kernel without needing one.
func TestWarnings(t *testing.T) {
	tcp := Rules{DenyTCP: true}
	cases := []struct {
		abi   int
		rules Rules
		want  []string // substrings, in order
	}{
		{0, tcp, []string{"writes outside the writable set are NOT prevented"}},
		{0, Rules{WritesOnly: true}, []string{"only the read-only mounts stop writes"}}, // sandbox mode
		{1, tcp, []string{"REFER", "TRUNCATE", "TCP", "IOCTL_DEV", "scoping"}},
		{3, Rules{}, []string{"IOCTL_DEV", "scoping"}}, // no TCP warning without --net none
		{3, tcp, []string{"TCP", "IOCTL_DEV", "scoping"}},
		{5, tcp, []string{"scoping"}},
		{6, tcp, nil},
		{7, tcp, nil},
	}
	for _, c := range cases {
		got := Warnings(c.abi, c.rules)
		if len(got) != len(c.want) {
			t.Errorf("ABI %d: %d warnings %q, want %d", c.abi, len(got), got, len(c.want))
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], c.want[i]) {
				t.Errorf("ABI %d warning %d = %q, want it to mention %q", c.abi, i, got[i], c.want[i])
			}
		}
	}
}

func TestFromPolicy(t *testing.T) {
	p := profiles.Policy{Mode: profiles.ModeSandbox, Net: profiles.NetNone, Writable: []string{"/d", "/tmp"}}
	r := FromPolicy(p)
	if !r.DenyTCP || r.UnixSockets {
		t.Errorf("sandbox --net none: DenyTCP %v UnixSockets %v", r.DenyTCP, r.UnixSockets)
	}
	if r.ReadExec[0] != "/" || r.Writable[0] != "/d" || r.Writable[len(r.Writable)-1] != "/dev/shm" {
		t.Errorf("rules = %+v", r)
	}
	p.Mode, p.Net = profiles.ModeRX, profiles.NetHost
	if r := FromPolicy(p); r.DenyTCP || !r.UnixSockets {
		t.Errorf("rx --net host: DenyTCP %v UnixSockets %v", r.DenyTCP, r.UnixSockets)
	}
}

// TestKernelWarningsErratum: a kernel of ABI 6 used as ABI 5 (signal
// scoping erratum unfixed) names the lost scoping, its own ABI and why;
// where the two agree, it is Warnings.
func TestKernelWarningsErratum(t *testing.T) {
	got := strings.Join(KernelWarnings(6, 5, Rules{}), "\n")
	for _, want := range []string{"Landlock ABI 6 without the fix of its signal scoping erratum", "lacks signal and abstract unix socket scoping"} {
		if !strings.Contains(got, want) {
			t.Errorf("KernelWarnings(6, 5) = %q, want %q in it", got, want)
		}
	}
	if got, want := KernelWarnings(3, 3, Rules{}), Warnings(3, Rules{}); !slices.Equal(got, want) {
		t.Errorf("KernelWarnings(3, 3) = %q, want Warnings(3) %q", got, want)
	}
}
