//go:build linux && cgo && !omega_goinit

package nsexec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/seccomp"
)

func TestCInitArg(t *testing.T) {
	if got := cInitArg(); got != InitArg {
		t.Errorf("cinit.h's OMEGA_INIT_ARG = %q, nsexec.InitArg = %q", got, InitArg)
	}
	if got := cPtyGuardArg(); got != PtyGuardArg {
		t.Errorf("cinit.h's OMEGA_PTY_GUARD_ARG = %q, nsexec.PtyGuardArg = %q", got, PtyGuardArg)
	}
}

func TestCAppendedHint(t *testing.T) {
	if got := cAppendedHint(); got != AppendedFilesHint {
		t.Errorf("cinit.h's OMEGA_APPENDED_HINT = %q, nsexec.AppendedFilesHint = %q", got, AppendedFilesHint)
	}
}

func TestCNoNamespacesHint(t *testing.T) {
	if got := cNoNamespacesHint(); got != NoNamespacesHint {
		t.Errorf("cinit.h's OMEGA_NO_NAMESPACES_HINT = %q, nsexec.NoNamespacesHint = %q", got, NoNamespacesHint)
	}
}

func TestCOtherNetRefused(t *testing.T) {
	if got := cOtherNetRefused(); got != OtherNetRefused {
		t.Errorf("cinit.h's OMEGA_OTHER_NET_REFUSED = %q, nsexec.OtherNetRefused = %q", got, OtherNetRefused)
	}
}

func TestCNoGoAheadHint(t *testing.T) {
	if got := cNoGoAheadHint(); got != NoGoAheadHint {
		t.Errorf("cinit.h's OMEGA_NO_GO_AHEAD_HINT = %q, nsexec.NoGoAheadHint = %q", got, NoGoAheadHint)
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

// TestCRefusesWhatIsNeverWritten: so does the C decoder.
func TestCRefusesWhatIsNeverWritten(t *testing.T) {
	for name, b := range neverWritten(t) {
		if got := cDescribe(b); got != "" {
			t.Errorf("%s: decoded\n%s", name, got)
		}
	}
}

// TestCReadSideMatches: the C init narrows rulesets by the same rights
// as landlock.ReadSide.
func TestCReadSideMatches(t *testing.T) {
	if got := cReadSide(); got != uint64(landlock.ReadSide) {
		t.Errorf("OMEGA_LL_READ_SIDE = %#x, landlock.ReadSide = %#x", got, uint64(landlock.ReadSide))
	}
}

// TestCCapsetRefusedMatches: both stages word a refused capset alike.
func TestCCapsetRefusedMatches(t *testing.T) {
	if got := cCapsetRefused(); got != CapsetRefused {
		t.Errorf("cinit.h's OMEGA_CAPSET_REFUSED = %q, nsexec.CapsetRefused = %q", got, CapsetRefused)
	}
}

// TestCDeviceDirMatches: the C init opens every writable root but the
// same device directory as heldRoots without following symlinks.
func TestCDeviceDirMatches(t *testing.T) {
	if got := []string{cDeviceDir()}; !slices.Equal(got, landlock.DeviceDirs) {
		t.Errorf("OMEGA_LL_DEVICE_DIR = %q, landlock.DeviceDirs = %q", got, landlock.DeviceDirs)
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

// describe is the Go side of cinit_spec.c's omega_spec_describe: the same text
// from the Go decoder, so that the two decoders can be compared.
func describe(b []byte) string {
	s, plan, err := decodeSpec(b)
	if err != nil {
		return ""
	}
	var w strings.Builder
	list := func(name string, l []string) {
		for _, v := range l {
			fmt.Fprintf(&w, "%s %s\n", name, v)
		}
	}
	flags := binary.LittleEndian.Uint32(b[4:])
	if flags == 0 {
		fmt.Fprintf(&w, "flags 0\n")
	} else {
		fmt.Fprintf(&w, "flags %#x\n", flags)
	}
	fmt.Fprintf(&w, "keep_fds %d\npath %s\nhostname %s\n", s.KeepFDs, s.Path, s.Hostname)
	list("argv", s.Argv)
	list("env", s.Env)
	list("unsetenv", s.Unsetenv)
	if m := s.Mounts; m != nil {
		list("writable", m.Writable)
		fmt.Fprintf(&w, "tmp_from %s\n", m.TmpFrom)
		list("keep", m.Keep)
		list("hide_dir", m.HideDirs)
		list("hide_file", m.HideFiles)
		list("read_only", m.ReadOnly)
		list("pin", m.Pin)
	}
	if u := s.User; u != nil {
		fmt.Fprintf(&w, "user %d %d\n", u.UID, u.GID)
		for _, g := range u.Groups {
			fmt.Fprintf(&w, "group %d\n", g)
		}
	}
	for _, l := range s.Limits {
		keep := 0
		if l.KeepSoft {
			keep |= 1
		}
		if l.KeepHard {
			keep |= 2
		}
		fmt.Fprintf(&w, "limit %s %d %d %d %d\n", l.Name, l.Resource, l.Soft, l.Hard, keep)
	}
	hex := func(v uint64) string {
		if v == 0 {
			return "0"
		}
		return fmt.Sprintf("%#x", v)
	}
	fmt.Fprintf(&w, "landlock %s %s %s %s\n", hex(plan.HandledFS), hex(plan.HandledNet), hex(plan.Scoped), hex(uint64(plan.RestrictFlags)))
	for _, r := range plan.Rules {
		fmt.Fprintf(&w, "rule %s %s %d\n", r.Path, hex(r.Access), r.Missing)
	}
	if p := s.Seccomp; p != nil {
		fmt.Fprintf(&w, "seccomp %d %s", len(p.BPF), hex(uint64(p.Flags)))
		for i := 0; i+8 <= len(p.BPF); i += 8 {
			in := p.BPF[i:]
			fmt.Fprintf(&w, " %04x:%02x:%02x:%08x", binary.NativeEndian.Uint16(in), in[2], in[3], binary.NativeEndian.Uint32(in[4:]))
		}
		w.WriteString("\n")
	}
	if b := s.Broker; b != nil {
		prog := func(name string, p *seccomp.Program) {
			if p == nil {
				return
			}
			fmt.Fprintf(&w, "%s %d", name, len(p.BPF))
			for i := 0; i+8 <= len(p.BPF); i += 8 {
				in := p.BPF[i:]
				fmt.Fprintf(&w, " %04x:%02x:%02x:%08x", binary.NativeEndian.Uint16(in), in[2], in[3], binary.NativeEndian.Uint32(in[4:]))
			}
			w.WriteString("\n")
		}
		prog("broker", b.Filter)
		prog("supervisor", b.Supervisor)
		list("socket", b.Sockets)
	}
	fmt.Fprintf(&w, "ignored %s\n", hex(uint64(s.IgnoredSignals)))
	fmt.Fprintf(&w, "blocked %s\n", hex(uint64(s.BlockedSignals)))
	return w.String()
}

// TestCLogJSON: the C init stage's JSON lines encode a message as the Go
// side's do (encoding/json, then termsafe.Encoded): valid, and nothing
// raw a terminal acts on.
func TestCLogJSON(t *testing.T) {
	for _, c := range termsafe.JSONVectors {
		if got := cJSONString(c.In); got != c.Want {
			t.Errorf("C writes %q in JSON as %q, want %q", c.In, got, c.Want)
		}
	}
}

// TestCTextReset: the C init stage resets a terminal before its warning
// after the run as the Go side does.
func TestCTextReset(t *testing.T) {
	if got := cTextReset(); got != termsafe.TextReset {
		t.Errorf("OMEGA_TEXT_RESET = %q, want termsafe.TextReset %q", got, termsafe.TextReset)
	}
}

// TestCLogEscapes: the C init stage escapes its log lines as the Go side
// does (internal/termsafe's table).
func TestCLogEscapes(t *testing.T) {
	for _, c := range termsafe.Vectors {
		if got := cTermSafe(c.In); got != c.Want {
			t.Errorf("C escapes %q as %q, want %q", c.In, got, c.Want)
		}
	}
}
