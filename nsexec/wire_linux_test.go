package nsexec

import (
	"encoding/binary"
	"reflect"
	"slices"
	"testing"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

// wireCases are specs with every field set, and with none.
func wireCases() []struct {
	name string
	spec *Spec
	plan landlock.RulesetPlan
} {
	full := &Spec{
		Path: "/usr/bin/prog", Argv: []string{"prog", "", "a b", "ünï"}, Env: []string{"A=1", "OMEGA_SANDBOX=sandbox"},
		PID1: true,
		Mounts: &MountPlan{
			Writable: []string{"/home/u/.omega", "/tmp"}, TmpFrom: "/home/u/.omega/tmp", FreshRun: true, Required: true, TmpdirIfRefused: true,
			Keep: []string{"/run/systemd/resolve"}, HideDirs: []string{"/home/u/.ssh"}, HideFiles: []string{"/home/u/.netrc"},
			ReadOnly: []string{"/p/.git/hooks"}, Pin: []string{"/p/.git"},
		},
		Unsetenv: []string{"SSH_AUTH_SOCK"}, Loopback: true, KeepFDs: 2, NewSession: true, Terminal: true,
		Landlock: landlock.Rules{ReadExec: []string{"/"}, Writable: []string{"/w"}, Devices: []string{"/dev/null"}, Streams: []string{"/proc/self/fd/1"}, DenyTCP: true, UnixSockets: true, WritesOnly: true, LogDenials: true},
		Seccomp:  &seccomp.Program{BPF: []byte{0x20, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0xff, 0x7f}, Flags: 2},
		Broker: &Broker{
			Filter:     &seccomp.Program{BPF: []byte{6, 0, 0, 0, 0, 0, 0xc0, 0x7f}},
			Supervisor: &seccomp.Program{BPF: []byte{6, 0, 0, 0, 0, 0, 0xff, 0x7f}},
			Sockets:    []string{"/run/nscd/socket", "/srv/app.sock"},
		},
		FailClosed: true, Plain: true, User: &Credentials{UID: 1000, GID: 100, Groups: []uint32{4, 27}},
		Hostname: "box", ClearEnv: true,
		Limits: []rlimits.Limit{
			{Name: "nofile", Resource: 7, Soft: 64, Hard: rlimits.Unlimited},
			{Name: "nproc", Resource: 6, Hard: 10, KeepSoft: true},
			{Name: "x", Resource: -1, Soft: 1, KeepHard: true},
		},
		GoAhead: true, CgroupNS: true, Probe: true, OwnKeyring: true, UserCounts: true, RefuseAppended: true, LogJSON: true, ListenPID: true, Warnings: []string{"w1"},
		IgnoredSignals: 1<<0 | 1<<12 | 1<<63,
		BlockedSignals: 1<<1 | 1<<11 | 1<<36 | 1<<62,
	}
	plan := landlock.Plan(full.Landlock, 9)
	return []struct {
		name string
		spec *Spec
		plan landlock.RulesetPlan
	}{
		{"full", full, plan},
		{"empty", &Spec{}, landlock.RulesetPlan{}},
		{"probe", &Spec{Probe: true, PID1: true, Mounts: &MountPlan{}}, landlock.Plan(landlock.Rules{}, 7)},
		{"broker without supervisor filter", &Spec{PID1: true, Broker: &Broker{Filter: &seccomp.Program{BPF: []byte{6, 0, 0, 0, 0, 0, 0xc0, 0x7f}}}}, landlock.RulesetPlan{}},
	}
}

func TestWireRoundTrip(t *testing.T) {
	for _, c := range wireCases() {
		t.Run(c.name, func(t *testing.T) {
			b, err := encodeSpec(c.spec, c.plan)
			if err != nil {
				t.Fatal(err)
			}
			got, plan, err := decodeSpec(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.spec) {
				t.Errorf("spec:\n got %+v\nwant %+v", got, c.spec)
			}
			if !reflect.DeepEqual(plan, c.plan) {
				t.Errorf("plan:\n got %+v\nwant %+v", plan, c.plan)
			}
			// Every shorter or longer form is refused, not misread.
			for n := 0; n < len(b); n++ {
				if _, _, err := decodeSpec(b[:n]); err == nil {
					t.Fatalf("a spec cut to %d of %d bytes decoded", n, len(b))
				}
			}
			if _, _, err := decodeSpec(append(b, 0)); err == nil {
				t.Error("a trailing byte was accepted")
			}
		})
	}
}

func TestWireRefusesNUL(t *testing.T) {
	if _, err := encodeSpec(&Spec{Argv: []string{"a\x00b"}}, landlock.RulesetPlan{}); err == nil {
		t.Error("a NUL byte in argv was encoded")
	}
}

// hugeCount is a spec whose argv count says 2^32-1 strings.
func hugeCount(t testing.TB) []byte {
	b, err := encodeSpec(&Spec{Path: "/bin/true", Argv: []string{"true"}}, landlock.RulesetPlan{})
	if err != nil {
		t.Fatal(err)
	}
	at := 4 + 4 + 4 + 4 + len("/bin/true") + 1 // magic, flags, KeepFDs, Path: argv's count
	binary.LittleEndian.PutUint32(b[at:], 0xffffffff)
	return b
}

// TestWireRefusesHugeCount: a corrupt count is refused before anything
// is allocated for it.
func TestWireRefusesHugeCount(t *testing.T) {
	if _, _, err := decodeSpec(hugeCount(t)); err == nil {
		t.Error("decoded an argv of 2^32-1 strings")
	}
}

// neverWritten are specs the encoder cannot write, which both decoders
// must refuse (found by FuzzDecodeSpec and FuzzCDecoderAgrees): KeepFDs
// of 2^31, and a limit's keep field with bits besides 1 (soft) and 2
// (hard), which the Go decoder dropped and the C one kept.
func neverWritten(t testing.TB) map[string][]byte {
	enc := func(keepSoft bool) []byte {
		b, err := encodeSpec(&Spec{Limits: []rlimits.Limit{{Name: "nofile", Resource: 7, KeepSoft: keepSoft}}}, landlock.RulesetPlan{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b, soft := enc(false), enc(true)
	keepFDs := slices.Clone(b)
	binary.LittleEndian.PutUint32(keepFDs[8:], 1<<31) // after magic and flags
	keep := slices.Clone(b)
	for i := range b {
		if b[i] != soft[i] {
			keep[i] = 4 // the limit's keep field: the only byte that differs
		}
	}
	return map[string][]byte{"KeepFDs 2^31": keepFDs, "keep 4": keep}
}

func TestWireRefusesWhatIsNeverWritten(t *testing.T) {
	for name, b := range neverWritten(t) {
		if s, _, err := decodeSpec(b); err == nil {
			t.Errorf("%s: decoded %+v", name, s)
		}
	}
}
