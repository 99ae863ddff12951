//go:build linux && cgo && !omega_goinit

package nsexec

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/seccomp"
)

func TestCInitArg(t *testing.T) {
	if got := cInitArg(); got != InitArg {
		t.Errorf("cinit.h's OMEGA_INIT_ARG = %q, nsexec.InitArg = %q", got, InitArg)
	}
}

// TestCDecoderAgrees decodes each spec with the C init stage's decoder
// and the Go one: both must read the same fields, and refuse the same
// cut-off forms.
func TestCDecoderAgrees(t *testing.T) {
	for _, c := range wireCases() {
		t.Run(c.name, func(t *testing.T) {
			b, err := encodeSpec(c.spec, c.plan)
			if err != nil {
				t.Fatal(err)
			}
			goText, cText := describe(b), cDescribe(b)
			if goText == "" || goText != cText {
				t.Errorf("decoders disagree\nGo:\n%s\nC:\n%s", goText, cText)
			}
			for n := 0; n < len(b); n++ {
				if got := cDescribe(b[:n]); got != "" {
					t.Fatalf("C decoded a spec cut to %d of %d bytes:\n%s", n, len(b), got)
				}
			}
			if got := cDescribe(append(b, 0)); got != "" {
				t.Error("C accepted a trailing byte")
			}
		})
	}
}

// TestCRefusesHugeCount: the C decoder refuses a corrupt count too.
func TestCRefusesHugeCount(t *testing.T) {
	if got := cDescribe(hugeCount(t)); got != "" {
		t.Errorf("decoded an argv of 2^32-1 strings:\n%s", got)
	}
}

// TestCReadSideMatches: the C init narrows rulesets by the same rights
// as landlock.ReadSide.
func TestCReadSideMatches(t *testing.T) {
	if got := cReadSide(); got != uint64(landlock.ReadSide) {
		t.Errorf("OMEGA_LL_READ_SIDE = %#x, landlock.ReadSide = %#x", got, uint64(landlock.ReadSide))
	}
}

// TestErrstrIsGos: the C init stage words every errno as Go does, so that
// its errors read like the Go side's on glibc and musl alike (their
// strerror texts differ for half of them).
func TestErrstrIsGos(t *testing.T) {
	for e := 0; e < 140; e++ {
		if got, want := cErrstr(e), syscall.Errno(e).Error(); e != 0 && got != want {
			t.Errorf("errno %d: C says %q, Go %q", e, got, want)
		}
	}
}

// TestBrokerFilterChecked: the program's filter with the broker's rules
// is refused, like any other, when the kernel could not take it whole
// (more than BPF_MAXINSNS instructions, or a length that is no whole
// number of them), rather than cut to what fits in sock_fprog's 16 bits.
// Each filter here allows everything in its first instruction, so that a
// cut one would let the program run.
func TestBrokerFilterChecked(t *testing.T) {
	allow := []byte{6, 0, 0, 0, 0, 0, 0xff, 0x7f} // BPF_RET|BPF_K, SECCOMP_RET_ALLOW
	cases := map[string][]byte{
		"65537 instructions": bytes.Repeat(allow, 65537),
		"12 bytes":           append(slices.Clone(allow), 0, 0, 0, 0),
	}
	for name, bpf := range cases {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			os.Chmod(tmp, 0o755)
			s := &Spec{
				Path: "/bin/true", Argv: []string{"true"},
				Mounts:   &MountPlan{Writable: []string{tmp}, TmpFrom: tmp, FreshRun: true},
				Landlock: landlock.Rules{ReadExec: []string{"/"}, Writable: []string{tmp}},
				Seccomp:  &seccomp.Program{BPF: allow},
				Broker:   &Broker{Filter: &seccomp.Program{BPF: bpf}},
			}
			cmd, err := Command(t.Context(), s, Namespaces{Enabled: true})
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), "connect broker: ") {
				t.Errorf("the program ran (%v, %q); want the start refused", err, out)
			}
		})
	}
}
