package nsexec

import (
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

// addWireSeeds seeds a decoder fuzz target with the encoded wireCases.
func addWireSeeds(f *testing.F) {
	for _, c := range wireCases() {
		b, err := encodeSpec(c.spec, c.plan)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(hugeCount(f))
	for _, b := range neverWritten(f) {
		f.Add(b)
	}
	f.Add([]byte("OMS1"))
}

// FuzzDecodeSpec: any bytes decode to an error or to a spec that the
// encoder writes again and that then decodes to the same spec: the
// decoder accepts nothing the encoder could not have written.
func FuzzDecodeSpec(f *testing.F) {
	addWireSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, plan, err := decodeSpec(b)
		if err != nil {
			return
		}
		again, err := encodeSpec(s, plan)
		if err != nil {
			t.Fatalf("decoded %+v, which does not encode: %v", s, err)
		}
		s2, plan2, err := decodeSpec(again)
		if err != nil || !reflect.DeepEqual(s2, s) || !reflect.DeepEqual(plan2, plan) {
			t.Fatalf("decoded %+v %+v; re-encoded, %+v %+v, %v", s, plan, s2, plan2, err)
		}
	})
}

// FuzzWireRoundTrip builds specs from the fuzzer's values: each encodes
// and decodes to itself, unless a string holds a NUL, which is an error.
// Empty lists are nil, as the decoder gives them back.
func FuzzWireRoundTrip(f *testing.F) {
	f.Add(uint32(0), uint16(0), "", "", []byte(nil), uint64(0))
	f.Add(^uint32(0), uint16(1000), "/usr/bin/prog\nprog\na b", "/tmp\n\nünï", []byte{6, 0, 0, 0, 0, 0, 0xff, 0x7f}, ^uint64(0))
	f.Add(uint32(0x5555), uint16(3), "a\x00b", "x", []byte{1}, uint64(1<<63|7))
	f.Fuzz(func(t *testing.T, flags uint32, keep uint16, a, b string, bpf []byte, n uint64) {
		s, plan := fuzzSpec(flags, keep, a, b, bpf, n)
		enc, err := encodeSpec(s, plan)
		if hasNUL := strings.Contains(a+b, "\x00"); err != nil || hasNUL {
			if !hasNUL || err == nil {
				t.Fatalf("encode: %v, with a NUL byte: %v", err, hasNUL)
			}
			return
		}
		got, gotPlan, err := decodeSpec(enc)
		if err != nil || !reflect.DeepEqual(got, s) || !reflect.DeepEqual(gotPlan, plan) {
			t.Fatalf("round trip (%v):\n got %+v %+v\nwant %+v %+v", err, got, gotPlan, s, plan)
		}
	})
}

// fuzzSpec fills every field of a Spec: booleans from bits of flags,
// lists from the lines of a and b, numbers from n.
func fuzzSpec(flags uint32, keep uint16, a, b string, bpf []byte, n uint64) (*Spec, landlock.RulesetPlan) {
	bit := func(i int) bool { return flags&(1<<i) != 0 }
	lines := func(s string, skip int) []string {
		l := strings.Split(s, "\n")
		if skip >= len(l) {
			return nil
		}
		return l[skip:]
	}
	prog := func(on bool) *seccomp.Program {
		if !on || len(bpf) == 0 {
			return nil
		}
		return &seccomp.Program{BPF: bpf, Flags: uint(n & 0xffffffff)}
	}
	s := &Spec{
		Path: a, Argv: lines(a, 0), Env: lines(b, 0), Unsetenv: lines(a, 1), Hostname: b,
		PID1: bit(0), Loopback: bit(1), NewSession: bit(2), FailClosed: bit(3), Plain: bit(4), ClearEnv: bit(5),
		GoAhead: bit(6), CgroupNS: bit(7), Probe: bit(8), LogJSON: bit(9), ListenPID: bit(10), WatchdogPID: bit(20), OwnKeyring: bit(24), UserCounts: bit(25), RefuseAppended: bit(26), Terminal: bit(28),
		KeepFDs:  int(keep),
		Landlock: landlock.Rules{ReadExec: lines(a, 2), Writable: lines(b, 1), Devices: lines(b, 2), Streams: lines(a, 3), DenyTCP: bit(11), UnixSockets: bit(12), WritesOnly: bit(13), LogDenials: bit(22)},
		Seccomp:  prog(bit(14)), Warnings: lines(b, 3), IgnoredSignals: SignalSet(n),
		BlockedSignals: SignalSet(bits.RotateLeft64(n, 17)),
	}
	if bit(15) {
		s.Mounts = &MountPlan{Writable: lines(a, 1), TmpFrom: b, FreshRun: bit(16), Required: bit(23), TmpdirIfRefused: bit(27), Keep: lines(b, 1), HideDirs: lines(a, 2), HideFiles: lines(b, 2), ReadOnly: lines(a, 3), Pin: lines(b, 3)}
	}
	if bit(17) {
		s.User = &Credentials{UID: uint32(n), GID: uint32(n >> 32)}
		for _, c := range b {
			s.User.Groups = append(s.User.Groups, uint32(c))
		}
	}
	if bit(18) && len(bpf) > 0 {
		s.Broker = &Broker{Filter: &seccomp.Program{BPF: bpf}, Supervisor: prog(bit(19)), Sockets: lines(a, 1)}
		if s.Broker.Supervisor != nil {
			s.Broker.Supervisor.Flags = 0 // the broker's filters carry no flags on the wire
		}
	}
	for i, name := range lines(a, 0) {
		s.Limits = append(s.Limits, rlimits.Limit{Name: name, Resource: int(int32(n>>i) - 1), Soft: n, Hard: ^n, KeepSoft: bit(23 + i%2), KeepHard: bit(24 + i%3)})
	}
	plan := landlock.RulesetPlan{HandledFS: n, HandledNet: n >> 3, Scoped: ^n, RestrictFlags: flags}
	for i, p := range lines(b, 0) {
		plan.Rules = append(plan.Rules, landlock.PathRule{Path: p, Access: n + uint64(i), Missing: landlock.Missing(flags >> i)})
	}
	return s, plan
}
