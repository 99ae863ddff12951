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

// The spec's wire format: what the parent writes into the spec fd (a
// pipe or a memfd) and both init stages read, the C one (cinit_spec.c, spec_decode) and
// the Go one (decodeSpec). It is flat so that C needs no parser beyond
// reading numbers. Every integer is little-endian.
//
//	u32   magic "OMS1" (wireMagic)
//	u32   flags (the flag* bits below)
//	u32   KeepFDs
//	str   Path
//	strs  Argv, Env, Unsetenv
//	str   Hostname
//	if flagMounts:  strs Writable; str TmpFrom; strs Keep, HideDirs, HideFiles, ReadOnly, Pin
//	if flagUser:    u32 UID, u32 GID, u32 n, n × u32 Groups
//	u32   n limits, each: str Name, i32 Resource, u64 Soft, u64 Hard, u32 keep (1 soft, 2 hard)
//	strs  Landlock.ReadExec, Landlock.Writable, Landlock.Devices
//	      (DenyTCP and UnixSockets are flag bits)
//	plan  landlock.Plan of the rules for the kernel's ABI, computed by the
//	      parent: u64 HandledFS, u64 HandledNet, u64 Scoped,
//	      u32 RestrictFlags, u32 n, n × (str Path, u64 Access, u32 Missing)
//	if flagSeccomp: bytes BPF (host byte order), u32 Flags
//	if flagBroker:  bytes Broker.Filter, bytes Broker.Supervisor (empty:
//	                none), strs Broker.Sockets
//	strs  Warnings
//	u64   IgnoredSignals (bit n-1: signal n)
//
// str is u32 length, the bytes, and a NUL that the length does not count
// (so C uses strings in place); bytes is u32 length and the bytes; strs
// is u32 count and that many str. Nothing may follow the last field.
const wireMagic = "OMS1"

const (
	flagPID1 = 1 << iota
	flagLoopback
	flagNewSession
	flagFailClosed
	flagPlain
	flagClearEnv
	flagGoAhead
	flagCgroupNS
	flagProbe
	flagLogJSON
	flagMounts
	flagFreshRun
	flagUser
	flagSeccomp
	flagDenyTCP
	flagUnixSockets
	// flagWritesOnly: once its mounts are in place, the init stage strips
	// landlock.ReadSide from the plan (which is sent without it, so that a
	// refused mount namespace keeps the full ruleset).
	flagWritesOnly
	// flagBroker: Spec.Broker is set.
	flagBroker
)

type wireWriter struct {
	b   []byte
	err error
}

func (w *wireWriter) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *wireWriter) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }

func (w *wireWriter) count(n int) {
	if n > math.MaxUint32 && w.err == nil {
		w.err = errors.New("field too long")
	}
	w.u32(uint32(n))
}

func (w *wireWriter) str(s string) {
	if strings.IndexByte(s, 0) >= 0 && w.err == nil {
		w.err = fmt.Errorf("NUL byte in %q", s)
	}
	w.count(len(s))
	w.b = append(append(w.b, s...), 0)
}

func (w *wireWriter) bytes(b []byte) {
	w.count(len(b))
	w.b = append(w.b, b...)
}

func (w *wireWriter) strs(list []string) {
	w.count(len(list))
	for _, s := range list {
		w.str(s)
	}
}

// encodeSpec lays s and the Landlock plan out in the wire format.
func encodeSpec(s *Spec, plan landlock.RulesetPlan) ([]byte, error) {
	var flags uint32
	set := func(on bool, bit uint32) {
		if on {
			flags |= bit
		}
	}
	set(s.PID1, flagPID1)
	set(s.Loopback, flagLoopback)
	set(s.NewSession, flagNewSession)
	set(s.FailClosed, flagFailClosed)
	set(s.Plain, flagPlain)
	set(s.ClearEnv, flagClearEnv)
	set(s.GoAhead, flagGoAhead)
	set(s.CgroupNS, flagCgroupNS)
	set(s.Probe, flagProbe)
	set(s.LogJSON, flagLogJSON)
	set(s.Mounts != nil, flagMounts)
	set(s.Mounts != nil && s.Mounts.FreshRun, flagFreshRun)
	set(s.User != nil, flagUser)
	set(s.Seccomp != nil, flagSeccomp)
	set(s.Landlock.DenyTCP, flagDenyTCP)
	set(s.Landlock.UnixSockets, flagUnixSockets)
	set(s.Landlock.WritesOnly, flagWritesOnly)
	set(s.Broker != nil, flagBroker)
	if s.KeepFDs < 0 || s.KeepFDs > math.MaxInt32 {
		return nil, fmt.Errorf("encode spec: KeepFDs %d", s.KeepFDs)
	}
	w := &wireWriter{b: make([]byte, 0, 4096)}
	w.b = append(w.b, wireMagic...)
	w.u32(flags)
	w.u32(uint32(s.KeepFDs))
	w.str(s.Path)
	w.strs(s.Argv)
	w.strs(s.Env)
	w.strs(s.Unsetenv)
	w.str(s.Hostname)
	if m := s.Mounts; m != nil {
		w.strs(m.Writable)
		w.str(m.TmpFrom)
		w.strs(m.Keep)
		w.strs(m.HideDirs)
		w.strs(m.HideFiles)
		w.strs(m.ReadOnly)
		w.strs(m.Pin)
	}
	if u := s.User; u != nil {
		w.u32(u.UID)
		w.u32(u.GID)
		w.count(len(u.Groups))
		for _, g := range u.Groups {
			w.u32(g)
		}
	}
	w.count(len(s.Limits))
	for _, l := range s.Limits {
		if l.Resource < math.MinInt32 || l.Resource > math.MaxInt32 {
			return nil, fmt.Errorf("encode spec: rlimit %s: resource %d", l.Name, l.Resource)
		}
		w.str(l.Name)
		w.u32(uint32(int32(l.Resource)))
		w.u64(l.Soft)
		w.u64(l.Hard)
		var keep uint32
		if l.KeepSoft {
			keep |= 1
		}
		if l.KeepHard {
			keep |= 2
		}
		w.u32(keep)
	}
	w.strs(s.Landlock.ReadExec)
	w.strs(s.Landlock.Writable)
	w.strs(s.Landlock.Devices)
	w.u64(plan.HandledFS)
	w.u64(plan.HandledNet)
	w.u64(plan.Scoped)
	w.u32(plan.RestrictFlags)
	w.count(len(plan.Rules))
	for _, r := range plan.Rules {
		w.str(r.Path)
		w.u64(r.Access)
		w.u32(uint32(r.Missing))
	}
	if s.Seccomp != nil {
		w.bytes(s.Seccomp.BPF)
		if s.Seccomp.Flags > math.MaxUint32 {
			return nil, fmt.Errorf("encode spec: seccomp flags %#x", s.Seccomp.Flags)
		}
		w.u32(uint32(s.Seccomp.Flags))
	}
	if b := s.Broker; b != nil {
		if b.Filter == nil {
			return nil, errors.New("encode spec: connect broker without a filter")
		}
		w.bytes(b.Filter.BPF)
		var sup []byte
		if b.Supervisor != nil {
			sup = b.Supervisor.BPF
		}
		w.bytes(sup)
		w.strs(b.Sockets)
	}
	w.strs(s.Warnings)
	w.u64(uint64(s.IgnoredSignals))
	if w.err != nil {
		return nil, fmt.Errorf("encode spec: %w", w.err)
	}
	return w.b, nil
}

var errShort = errors.New("truncated")

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
	n := r.u32()
	if n == 0 || r.err != nil {
		return nil
	}
	if uint64(n) > uint64(len(r.b)) { // every string takes 5 bytes at least
		r.err = errShort
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
	var plan landlock.RulesetPlan
	if len(b) < 4 || string(b[:4]) != wireMagic {
		return nil, plan, errors.New("decode spec: bad magic")
	}
	r := &wireReader{b: b[4:]}
	flags := r.u32()
	has := func(bit uint32) bool { return flags&bit != 0 }
	s := &Spec{
		PID1: has(flagPID1), Loopback: has(flagLoopback), NewSession: has(flagNewSession),
		FailClosed: has(flagFailClosed), Plain: has(flagPlain), ClearEnv: has(flagClearEnv),
		GoAhead: has(flagGoAhead), CgroupNS: has(flagCgroupNS), Probe: has(flagProbe), LogJSON: has(flagLogJSON),
	}
	s.KeepFDs = int(r.u32())
	s.Path = r.str()
	s.Argv = r.strs()
	s.Env = r.strs()
	s.Unsetenv = r.strs()
	s.Hostname = r.str()
	if has(flagMounts) {
		m := &MountPlan{FreshRun: has(flagFreshRun)}
		m.Writable = r.strs()
		m.TmpFrom = r.str()
		m.Keep = r.strs()
		m.HideDirs = r.strs()
		m.HideFiles = r.strs()
		m.ReadOnly = r.strs()
		m.Pin = r.strs()
		s.Mounts = m
	}
	if has(flagUser) {
		u := &Credentials{UID: r.u32(), GID: r.u32()}
		if n := r.u32(); n > 0 && r.err == nil {
			if uint64(n) > uint64(len(r.b))/4 {
				r.err = errShort
			} else {
				u.Groups = make([]uint32, n)
				for i := range u.Groups {
					u.Groups[i] = r.u32()
				}
			}
		}
		s.User = u
	}
	if n := r.u32(); n > 0 && r.err == nil {
		if uint64(n) > uint64(len(r.b)) {
			r.err = errShort
		} else {
			s.Limits = make([]rlimits.Limit, n)
			for i := range s.Limits {
				l := &s.Limits[i]
				l.Name = r.str()
				l.Resource = int(int32(r.u32()))
				l.Soft, l.Hard = r.u64(), r.u64()
				keep := r.u32()
				l.KeepSoft, l.KeepHard = keep&1 != 0, keep&2 != 0
			}
		}
	}
	s.Landlock.ReadExec = r.strs()
	s.Landlock.Writable = r.strs()
	s.Landlock.Devices = r.strs()
	s.Landlock.DenyTCP, s.Landlock.UnixSockets = has(flagDenyTCP), has(flagUnixSockets)
	s.Landlock.WritesOnly = has(flagWritesOnly)
	plan.HandledFS, plan.HandledNet, plan.Scoped = r.u64(), r.u64(), r.u64()
	plan.RestrictFlags = r.u32()
	if n := r.u32(); n > 0 && r.err == nil {
		if uint64(n) > uint64(len(r.b)) {
			r.err = errShort
		} else {
			plan.Rules = make([]landlock.PathRule, n)
			for i := range plan.Rules {
				plan.Rules[i] = landlock.PathRule{Path: r.str(), Access: r.u64(), Missing: landlock.Missing(r.u32())}
			}
		}
	}
	if has(flagSeccomp) {
		s.Seccomp = &seccomp.Program{BPF: r.bytes()}
		s.Seccomp.Flags = uint(r.u32())
	}
	if has(flagBroker) {
		b := &Broker{Filter: &seccomp.Program{BPF: r.bytes()}}
		if sup := r.bytes(); len(sup) > 0 {
			b.Supervisor = &seccomp.Program{BPF: sup}
		}
		b.Sockets = r.strs()
		s.Broker = b
	}
	s.Warnings = r.strs()
	s.IgnoredSignals = SignalSet(r.u64())
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the last field", len(r.b))
	}
	if r.err != nil {
		return nil, landlock.RulesetPlan{}, fmt.Errorf("decode spec: %w", r.err)
	}
	return s, plan, nil
}
