package nsexec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

var errShort = errors.New("truncated")

// wireReader reads the format wire_linux.go describes. The first error
// sticks: every later read returns a zero value, so decodeSpec checks once.
type wireReader struct {
	b   []byte
	err error
}

func (r *wireReader) take(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errShort
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *wireReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *wireReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// count reads an element count and checks that the rest of the buffer
// could hold that many elements of at least size bytes each, so that a
// corrupt count cannot make the decoder allocate gigabytes.
func (r *wireReader) count(size uint64) int {
	n := uint64(r.u32())
	if r.err != nil {
		return 0
	}
	if n > uint64(len(r.b))/size {
		r.err = errShort
		return 0
	}
	return int(n)
}

func (r *wireReader) str() string {
	n := uint64(r.u32())
	b := r.take(n + 1)
	if b == nil {
		return ""
	}
	if b[n] != 0 || strings.IndexByte(string(b[:n]), 0) >= 0 {
		if r.err == nil {
			r.err = errors.New("string not NUL-terminated")
		}
		return ""
	}
	return string(b[:n])
}

func (r *wireReader) bytes() []byte {
	n := r.u32()
	return append([]byte(nil), r.take(uint64(n))...)
}

// strs returns nil for an empty list, as the JSON form did for omitted
// ones, so that a round trip keeps nil slices nil.
func (r *wireReader) strs() []string {
	n := r.count(5) // every string takes 5 bytes at least
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// decodeSpec reads the wire format back: the Spec and the plan.
func decodeSpec(b []byte) (*Spec, landlock.RulesetPlan, error) {
	if len(b) < 4 || string(b[:4]) != wireMagic {
		return nil, landlock.RulesetPlan{}, errors.New("decode spec: bad magic")
	}
	r := &wireReader{b: b[4:]}
	flags := r.u32()
	has := func(bit uint32) bool { return flags&bit != 0 }
	s := &Spec{
		PID1: has(flagPID1), Loopback: has(flagLoopback), NewSession: has(flagNewSession),
		FailClosed: has(flagFailClosed), Plain: has(flagPlain), ClearEnv: has(flagClearEnv),
		GoAhead: has(flagGoAhead), CgroupNS: has(flagCgroupNS), Probe: has(flagProbe), LogJSON: has(flagLogJSON),
		ListenPID: has(flagListenPID), WatchdogPID: has(flagWatchdogPID),
	}
	if s.KeepFDs = int(r.u32()); s.KeepFDs > math.MaxInt32 && r.err == nil {
		r.err = fmt.Errorf("KeepFDs %d", s.KeepFDs) // encodeSpec refuses it
	}
	s.Path = r.str()
	s.Argv = r.strs()
	s.Env = r.strs()
	s.Unsetenv = r.strs()
	s.Hostname = r.str()
	if has(flagMounts) {
		s.Mounts = r.mounts(has(flagFreshRun))
		s.Mounts.Required = has(flagMountsRequired)
		s.Mounts.TmpdirIfRefused = has(flagTmpdirIfRefused)
	}
	if has(flagUser) {
		s.User = r.user()
	}
	s.Limits = r.limits()
	s.Landlock.ReadExec = r.strs()
	s.Landlock.Writable = r.strs()
	s.Landlock.Devices = r.strs()
	s.Landlock.Streams = r.strs()
	s.Landlock.DenyTCP, s.Landlock.UnixSockets = has(flagDenyTCP), has(flagUnixSockets)
	s.Landlock.WritesOnly, s.Landlock.LogDenials = has(flagWritesOnly), has(flagLogDenials)
	s.OwnKeyring, s.UserCounts, s.RefuseAppended = has(flagOwnKeyring), has(flagUserCounts), has(flagRefuseAppended)
	s.Terminal, s.Foreground = has(flagTerminal), has(flagForeground)
	plan := r.plan()
	if has(flagSeccomp) {
		s.Seccomp = &seccomp.Program{BPF: r.bytes()}
		s.Seccomp.Flags = uint(r.u32())
	}
	if has(flagBroker) {
		s.Broker = r.broker()
	}
	s.Warnings = r.strs()
	s.IgnoredSignals = SignalSet(r.u64())
	s.BlockedSignals = SignalSet(r.u64())
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the last field", len(r.b))
	}
	if r.err != nil {
		return nil, landlock.RulesetPlan{}, fmt.Errorf("decode spec: %w", r.err)
	}
	return s, plan, nil
}

func (r *wireReader) mounts(fresh bool) *MountPlan {
	m := &MountPlan{FreshRun: fresh}
	m.Writable = r.strs()
	m.TmpFrom = r.str()
	m.Keep = r.strs()
	m.HideDirs = r.strs()
	m.HideFiles = r.strs()
	m.ReadOnly = r.strs()
	m.Pin = r.strs()
	return m
}

func (r *wireReader) user() *Credentials {
	u := &Credentials{UID: r.u32(), GID: r.u32()}
	if n := r.count(4); n > 0 {
		u.Groups = make([]uint32, n)
		for i := range u.Groups {
			u.Groups[i] = r.u32()
		}
	}
	return u
}

func (r *wireReader) limits() []rlimits.Limit {
	n := r.count(5 + 4 + 8 + 8 + 4) // the least a limit takes
	if n == 0 {
		return nil
	}
	out := make([]rlimits.Limit, n)
	for i := range out {
		l := &out[i]
		l.Name = r.str()
		l.Resource = int(int32(r.u32()))
		l.Soft, l.Hard = r.u64(), r.u64()
		keep := r.u32()
		l.KeepSoft, l.KeepHard = keep&1 != 0, keep&2 != 0
		if keep&^3 != 0 && r.err == nil {
			r.err = fmt.Errorf("rlimit %s: keep %#x", l.Name, keep) // the C decoder refuses it too
		}
	}
	return out
}

func (r *wireReader) plan() landlock.RulesetPlan {
	var plan landlock.RulesetPlan
	plan.HandledFS, plan.HandledNet, plan.Scoped = r.u64(), r.u64(), r.u64()
	plan.RestrictFlags = r.u32()
	if n := r.count(5 + 8 + 4); n > 0 { // the least a rule takes
		plan.Rules = make([]landlock.PathRule, n)
		for i := range plan.Rules {
			plan.Rules[i] = landlock.PathRule{Path: r.str(), Access: r.u64(), Missing: landlock.Missing(r.u32())}
		}
	}
	return plan
}

func (r *wireReader) broker() *Broker {
	b := &Broker{Filter: &seccomp.Program{BPF: r.bytes()}}
	if sup := r.bytes(); len(sup) > 0 {
		b.Supervisor = &seccomp.Program{BPF: sup}
	}
	b.Sockets = r.strs()
	return b
}
