package nsexec

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
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
			Writable: []string{"/home/u/.omega", "/tmp"}, TmpFrom: "/home/u/.omega/tmp", FreshRun: true,
			Keep: []string{"/run/systemd/resolve"}, HideDirs: []string{"/home/u/.ssh"}, HideFiles: []string{"/home/u/.netrc"},
			ReadOnly: []string{"/p/.git/hooks"}, Pin: []string{"/p/.git"},
		},
		Unsetenv: []string{"SSH_AUTH_SOCK"}, Loopback: true, KeepFDs: 2, NewSession: true,
		Landlock: landlock.Rules{ReadExec: []string{"/"}, Writable: []string{"/w"}, Devices: []string{"/dev/null"}, DenyTCP: true, UnixSockets: true, WritesOnly: true},
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
		GoAhead: true, CgroupNS: true, Probe: true, LogJSON: true, Warnings: []string{"w1"},
		IgnoredSignals: 1<<0 | 1<<12 | 1<<63,
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
	return w.String()
}

// hugeCount is a spec whose argv count says 2^32-1 strings.
func hugeCount(t *testing.T) []byte {
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
