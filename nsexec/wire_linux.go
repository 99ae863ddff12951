package nsexec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/rlimits"
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
//	strs  Landlock.ReadExec, Landlock.Writable, Landlock.Devices, Landlock.Streams
//	      (DenyTCP, UnixSockets, WritesOnly and LogDenials are flag bits)
//	plan  landlock.Plan of the rules for the kernel's ABI, computed by the
//	      parent: u64 HandledFS, u64 HandledNet, u64 Scoped,
//	      u32 RestrictFlags, u32 n, n × (str Path, u64 Access, u32 Missing)
//	if flagSeccomp: bytes BPF (host byte order), u32 Flags
//	if flagBroker:  bytes Broker.Filter, bytes Broker.Supervisor (empty:
//	                none), strs Broker.Sockets
//	strs  Warnings
//	u64   IgnoredSignals (bit n-1: signal n)
//	u64   BlockedSignals (bit n-1: signal n)
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
	// flagListenPID: Spec.ListenPID.
	flagListenPID
	// flagWatchdogPID: Spec.WatchdogPID.
	flagWatchdogPID
	// flagLogDenials: Landlock.LogDenials, for the Go init stage, which
	// builds its ruleset from the rules (the C one reads the plan's
	// RestrictFlags).
	flagLogDenials
	// flagMountsRequired: Mounts.Required.
	flagMountsRequired
	// flagOwnKeyring: Spec.OwnKeyring.
	flagOwnKeyring
	// flagUserCounts: Spec.UserCounts.
	flagUserCounts
	// flagRefuseAppended: Spec.RefuseAppended.
	flagRefuseAppended
	// flagTmpdirIfRefused: Mounts.TmpdirIfRefused.
	flagTmpdirIfRefused
	// flagTerminal: Spec.Terminal.
	flagTerminal
	// flagForeground: Spec.Foreground, for the Go init stage.
	flagForeground
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
	if s.KeepFDs < 0 || s.KeepFDs > math.MaxInt32 {
		return nil, fmt.Errorf("encode spec: KeepFDs %d", s.KeepFDs)
	}
	w := &wireWriter{b: make([]byte, 0, 4096)}
	w.b = append(w.b, wireMagic...)
	w.u32(specFlags(s))
	w.u32(uint32(s.KeepFDs))
	w.str(s.Path)
	w.strs(s.Argv)
	w.strs(s.Env)
	w.strs(s.Unsetenv)
	w.str(s.Hostname)
	if m := s.Mounts; m != nil {
		w.strs(m.Writable)
		w.str(m.TmpFrom)
		for _, list := range [][]string{m.Keep, m.HideDirs, m.HideFiles, m.ReadOnly, m.Pin} {
			w.strs(list)
		}
	}
	if u := s.User; u != nil {
		w.u32(u.UID)
		w.u32(u.GID)
		w.count(len(u.Groups))
		for _, g := range u.Groups {
			w.u32(g)
		}
	}
	if err := w.limits(s.Limits); err != nil {
		return nil, err
	}
	w.landlock(s.Landlock, plan)
	if err := w.filters(s); err != nil {
		return nil, err
	}
	w.strs(s.Warnings)
	w.u64(uint64(s.IgnoredSignals))
	w.u64(uint64(s.BlockedSignals))
	if w.err != nil {
		return nil, fmt.Errorf("encode spec: %w", w.err)
	}
	return w.b, nil
}

// specFlags packs s's booleans and which optional sections follow.
func specFlags(s *Spec) uint32 {
	var flags uint32
	for _, f := range [...]struct {
		bit uint32
		on  bool
	}{
		{flagPID1, s.PID1}, {flagLoopback, s.Loopback}, {flagNewSession, s.NewSession},
		{flagFailClosed, s.FailClosed}, {flagPlain, s.Plain}, {flagClearEnv, s.ClearEnv},
		{flagGoAhead, s.GoAhead}, {flagCgroupNS, s.CgroupNS}, {flagProbe, s.Probe}, {flagLogJSON, s.LogJSON},
		{flagMounts, s.Mounts != nil}, {flagFreshRun, s.Mounts != nil && s.Mounts.FreshRun},
		{flagMountsRequired, s.Mounts != nil && s.Mounts.Required}, {flagOwnKeyring, s.OwnKeyring},
		{flagUser, s.User != nil}, {flagSeccomp, s.Seccomp != nil}, {flagBroker, s.Broker != nil},
		{flagDenyTCP, s.Landlock.DenyTCP}, {flagUnixSockets, s.Landlock.UnixSockets},
		{flagWritesOnly, s.Landlock.WritesOnly}, {flagListenPID, s.ListenPID},
		{flagWatchdogPID, s.WatchdogPID}, {flagLogDenials, s.Landlock.LogDenials}, {flagUserCounts, s.UserCounts},
		{flagRefuseAppended, s.RefuseAppended}, {flagTmpdirIfRefused, s.Mounts != nil && s.Mounts.TmpdirIfRefused},
		{flagTerminal, s.Terminal}, {flagForeground, s.Foreground},
	} {
		if f.on {
			flags |= f.bit
		}
	}
	return flags
}

func (w *wireWriter) limits(list []rlimits.Limit) error {
	w.count(len(list))
	for _, l := range list {
		if l.Resource < math.MinInt32 || l.Resource > math.MaxInt32 {
			return fmt.Errorf("encode spec: rlimit %s: resource %d", l.Name, l.Resource)
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
	return nil
}

func (w *wireWriter) landlock(r landlock.Rules, plan landlock.RulesetPlan) {
	w.strs(r.ReadExec)
	w.strs(r.Writable)
	w.strs(r.Devices)
	w.strs(r.Streams)
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
}

// filters writes the seccomp program and the connect broker's filters.
func (w *wireWriter) filters(s *Spec) error {
	if s.Seccomp != nil {
		w.bytes(s.Seccomp.BPF)
		if s.Seccomp.Flags > math.MaxUint32 {
			return fmt.Errorf("encode spec: seccomp flags %#x", s.Seccomp.Flags)
		}
		w.u32(uint32(s.Seccomp.Flags))
	}
	if b := s.Broker; b != nil {
		if b.Filter == nil {
			return errors.New("encode spec: connect broker without a filter")
		}
		w.bytes(b.Filter.BPF)
		var sup []byte
		if b.Supervisor != nil {
			sup = b.Supervisor.BPF
		}
		w.bytes(sup)
		w.strs(b.Sockets)
	}
	return nil
}
