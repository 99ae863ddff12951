package landlock

import (
	"reflect"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// TestPlan holds Plan against go-landlock's downgrade, worked out by hand
// from its ABI table (abi_versions.go) for the rules omega-run builds.
func TestPlan(t *testing.T) {
	rules := Rules{ReadExec: []string{"/"}, Writable: []string{"/w", "/dev/shm"}, Devices: []string{"/dev/null"}, LogDenials: true}
	quiet := rules
	quiet.LogDenials = false
	rx := rules
	rx.UnixSockets = true
	tcp := rules
	tcp.DenyTCP = true
	const logNewExec = 2
	plan := func(fs, net, scoped uint64, flags uint32, read, write, dev uint64) RulesetPlan {
		return RulesetPlan{HandledFS: fs, HandledNet: net, Scoped: scoped, RestrictFlags: flags, Rules: []PathRule{
			{"/", read, MissingFails}, {"/w", write, MissingSkipped}, {"/dev/shm", write, MissingSkipped}, {"/dev/null", dev, MissingIgnored},
		}}
	}
	cases := []struct {
		name  string
		abi   int
		rules Rules
		want  RulesetPlan
	}{
		{"no landlock", 0, rules, RulesetPlan{}},
		{"ABI 1 without REFER", 1, rules, plan(0x1fff, 0, 0, 0, 0xd, 0x1fff, 0x7)},
		{"ABI 2", 2, rules, plan(0x3fff, 0, 0, 0, 0xd, 0x3fff, 0x7)},
		{"ABI 3 truncate", 3, rules, plan(0x7fff, 0, 0, 0, 0xd, 0x7fff, 0x4007)},
		{"ABI 4 without --net none", 4, rules, plan(0x7fff, 0, 0, 0, 0xd, 0x7fff, 0x4007)},
		{"ABI 4 with --net none", 4, tcp, plan(0x7fff, 0x3, 0, 0, 0xd, 0x7fff, 0x4007)},
		{"ABI 5 ioctl_dev", 5, rules, plan(0xffff, 0, 0, 0, 0xd, 0xffff, 0xc007)},
		{"ABI 6 scopes", 6, tcp, plan(0xffff, 0x3, 0x3, 0, 0xd, 0xffff, 0xc007)},
		{"ABI 7 logging", 7, rules, plan(0xffff, 0, 0x3, logNewExec, 0xd, 0xffff, 0xc007)},
		{"ABI 7 without --log-denials", 7, quiet, plan(0xffff, 0, 0x3, 0, 0xd, 0xffff, 0xc007)},
		{"ABI 7 rx", 7, rx, plan(0xffff, 0, 0x3, logNewExec, 0xd, 0xffff, 0xc007)},
		{"ABI 9 resolve_unix", 9, rules, plan(0x1ffff, 0, 0x3, logNewExec, 0xd, 0x1ffff, 0xc007)},
		{"ABI 9 rx", 9, rx, plan(0x1ffff, 0, 0x3, logNewExec, 0x1000d, 0x1ffff, 0xc007)},
		{"ABI 11 keeps V9's rights (no UDP)", 11, tcp, plan(0x1ffff, 0x3, 0x3, logNewExec, 0xd, 0x1ffff, 0xc007)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Plan(c.rules, c.abi)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Plan(ABI %d) =\n%+v\nwant\n%+v", c.abi, got, c.want)
			}
			if got.Enforces() != (c.abi >= 1) {
				t.Errorf("Enforces = %v at ABI %d", got.Enforces(), c.abi)
			}
		})
	}
}

// A rule without paths adds nothing; FromPolicy's rules plan at any ABI.
func TestPlanEmptyLists(t *testing.T) {
	p := Plan(Rules{Writable: []string{"/w"}}, 7)
	if len(p.Rules) != 1 || p.Rules[0].Path != "/w" {
		t.Errorf("rules = %+v", p.Rules)
	}
}

// TestPlanWritesOnly: sandbox mode handles no read-side right, so the
// rule on / falls away and read-only opens need no path walk.
func TestPlanWritesOnly(t *testing.T) {
	r := Rules{ReadExec: []string{"/"}, Writable: []string{"/w"}, Devices: []string{"/dev/null"}, WritesOnly: true}
	p := Plan(r, 7)
	if p.HandledFS&ReadSide != 0 {
		t.Errorf("handled %#x includes read-side rights %#x", p.HandledFS, p.HandledFS&ReadSide)
	}
	if p.HandledFS&llsys.AccessFSWriteFile == 0 || p.HandledFS&llsys.AccessFSRefer == 0 {
		t.Errorf("handled %#x lacks write or refer", p.HandledFS)
	}
	for _, rule := range p.Rules {
		if rule.Path == "/" {
			t.Errorf("a rule on / remains: %+v", rule)
		}
		if rule.Access&^p.HandledFS != 0 {
			t.Errorf("rule %+v grants unhandled rights", rule)
		}
	}
	if len(p.Rules) != 2 {
		t.Errorf("want the /w and /dev/null rules, got %+v", p.Rules)
	}
}

// TestPlanStreams: an inherited fd's file (or terminal) gets RWFiles'
// rights and IOCTL_DEV, narrowed to the write side and IOCTL_DEV in
// sandbox mode; the init stage checks its own fd (MissingStream).
func TestPlanStreams(t *testing.T) {
	r := Rules{Writable: []string{"/w"}, Streams: []string{"/proc/self/fd/1"}}
	want := PathRule{Path: "/proc/self/fd/1", Access: 0xc007, Missing: MissingStream}
	if p := Plan(r, 7); len(p.Rules) != 2 || p.Rules[1] != want {
		t.Errorf("rules = %+v, want the stream as %+v", p.Rules, want)
	}
	r.WritesOnly = true
	want.Access = llsys.AccessFSWriteFile | llsys.AccessFSIoctlDev
	if p := Plan(r, 7); len(p.Rules) != 2 || p.Rules[1] != want {
		t.Errorf("writes only: rules = %+v, want the stream as %+v", p.Rules, want)
	}
}
