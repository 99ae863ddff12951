package seccomp

import (
	"fmt"
	"strconv"
	"strings"
)

// Profile is a seccomp profile in the Docker / OCI JSON format. The
// built-in profiles use the same format, so one parser serves all.
type Profile struct {
	// Source names the profile in messages: a built-in name or a path.
	Source string `json:"-"`
	// builtin is the name of the built-in profile Resolve read, whose
	// program was compiled at build time; "" for others.
	builtin string

	DefaultAction   Action    `json:"defaultAction"`
	DefaultErrnoRet *uint     `json:"defaultErrnoRet,omitempty"`
	Architectures   []string  `json:"architectures,omitempty"`
	ArchMap         []ArchMap `json:"archMap,omitempty"`
	Flags           []string  `json:"flags,omitempty"`
	Syscalls        []Syscall `json:"syscalls,omitempty"`

	// Accepted so that OCI profiles load, rejected by Validate when set:
	// a confined program has nobody to answer user notifications.
	ListenerPath     string `json:"listenerPath,omitempty"`
	ListenerMetadata string `json:"listenerMetadata,omitempty"`
	Comment          string `json:"comment,omitempty"`
}

// ArchMap is Docker's way to name an architecture with its compat ABIs.
type ArchMap struct {
	Arch      string   `json:"architecture"`
	SubArches []string `json:"subArchitectures"`
}

// Syscall is one rule: names, an action and optional argument checks.
type Syscall struct {
	Names    []string `json:"names,omitempty"`
	Name     string   `json:"name,omitempty"` // the legacy single-name form
	Action   Action   `json:"action"`
	ErrnoRet *uint    `json:"errnoRet,omitempty"`
	Args     []Arg    `json:"args,omitempty"`
	Comment  string   `json:"comment,omitempty"`
	Includes *Filter  `json:"includes,omitempty"`
	Excludes *Filter  `json:"excludes,omitempty"`
}

// Filter selects rules by host architecture, capabilities and kernel.
type Filter struct {
	Arches    []string `json:"arches,omitempty"`
	Caps      []string `json:"caps,omitempty"`
	MinKernel string   `json:"minKernel,omitempty"`
}

// Arg is a condition on one syscall argument. For SCMP_CMP_MASKED_EQ,
// Value is the mask and ValueTwo the value the masked argument must equal.
type Arg struct {
	Index    uint     `json:"index"`
	Value    uint64   `json:"value"`
	ValueTwo uint64   `json:"valueTwo,omitempty"`
	Op       Operator `json:"op"`
}

// Action is a seccomp action name, e.g. "SCMP_ACT_ERRNO".
type Action string

// Actions of the Docker / OCI format.
const (
	ActKill        Action = "SCMP_ACT_KILL" // kills the thread
	ActKillProcess Action = "SCMP_ACT_KILL_PROCESS"
	ActKillThread  Action = "SCMP_ACT_KILL_THREAD"
	ActTrap        Action = "SCMP_ACT_TRAP"
	ActErrno       Action = "SCMP_ACT_ERRNO"
	ActTrace       Action = "SCMP_ACT_TRACE"
	ActAllow       Action = "SCMP_ACT_ALLOW"
	ActLog         Action = "SCMP_ACT_LOG"
	ActNotify      Action = "SCMP_ACT_NOTIFY" // rejected: see Profile.ListenerPath
)

// Operator is a comparison name, e.g. "SCMP_CMP_EQ".
type Operator string

// Comparison operators of the Docker / OCI format.
const (
	OpNotEqual     Operator = "SCMP_CMP_NE"
	OpLessThan     Operator = "SCMP_CMP_LT"
	OpLessEqual    Operator = "SCMP_CMP_LE"
	OpEqualTo      Operator = "SCMP_CMP_EQ"
	OpGreaterEqual Operator = "SCMP_CMP_GE"
	OpGreaterThan  Operator = "SCMP_CMP_GT"
	OpMaskedEqual  Operator = "SCMP_CMP_MASKED_EQ"
)

var operators = []Operator{OpNotEqual, OpLessThan, OpLessEqual, OpEqualTo, OpGreaterEqual, OpGreaterThan, OpMaskedEqual}

// Filter flags a profile may ask for; TSYNC is always used.
var filterFlags = map[string]uint{
	"SECCOMP_FILTER_FLAG_TSYNC":      0, // Install always sets it
	"SECCOMP_FILTER_FLAG_LOG":        2,
	"SECCOMP_FILTER_FLAG_SPEC_ALLOW": 4,
}

// maxErrno is the largest errno a rule can return: the kernel passes up
// to MAX_ERRNO (4095), but libseccomp refuses that one.
const maxErrno = 4094

// validSyscallName tells what a syscall name can look like: lower-case
// letters, digits and underscores, not starting with a digit. A name that
// passes but that libseccomp does not know is a warning at Compile time
// (it may be newer than libseccomp); one that fails is an error now.
func validSyscallName(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// Validate checks everything that can be checked without libseccomp, so
// that a bad profile fails before anything runs, on every platform.
func (p *Profile) Validate() error {
	if p.DefaultAction == "" {
		return fmt.Errorf("defaultAction is missing")
	}
	if err := checkAction(p.DefaultAction, p.DefaultErrnoRet); err != nil {
		return fmt.Errorf("defaultAction: %w", err)
	}
	if p.ListenerPath != "" {
		return fmt.Errorf("listenerPath: user notification is not supported")
	}
	if err := p.validateArches(); err != nil {
		return err
	}
	for _, f := range p.Flags {
		if _, ok := filterFlags[f]; !ok {
			return fmt.Errorf("flags: unsupported flag %q", f)
		}
	}
	for i := range p.Syscalls {
		if err := p.Syscalls[i].validate(); err != nil {
			return fmt.Errorf("syscalls[%d]%s: %w", i, p.Syscalls[i].label(), err)
		}
	}
	return nil
}

func (p *Profile) validateArches() error {
	if len(p.Architectures) > 0 && len(p.ArchMap) > 0 {
		return fmt.Errorf("both architectures and archMap are set; use one")
	}
	for _, a := range p.Architectures {
		if _, err := archByScmp(a); err != nil {
			return fmt.Errorf("architectures: %w", err)
		}
	}
	for _, m := range p.ArchMap {
		for _, a := range append([]string{m.Arch}, m.SubArches...) {
			if _, err := archByScmp(a); err != nil {
				return fmt.Errorf("archMap: %w", err)
			}
		}
	}
	return nil
}

// names returns the rule's syscall names, legacy form included.
func (s *Syscall) names() []string {
	if s.Name == "" {
		return s.Names
	}
	return append([]string{s.Name}, s.Names...)
}

// label is " (first name)" for messages, or "" for a rule without names.
func (s *Syscall) label() string {
	if n := s.names(); len(n) > 0 {
		return " (" + n[0] + ")"
	}
	return ""
}

func (s *Syscall) validate() error {
	if len(s.names()) == 0 {
		return fmt.Errorf("no syscall names")
	}
	for _, n := range s.names() {
		if !validSyscallName(n) {
			return fmt.Errorf("invalid syscall name %q", n)
		}
	}
	if s.Action == "" {
		return fmt.Errorf("action is missing")
	}
	if err := checkAction(s.Action, s.ErrnoRet); err != nil {
		return err
	}
	for i, a := range s.Args {
		if err := a.validate(); err != nil {
			return fmt.Errorf("args[%d]: %w", i, err)
		}
	}
	for _, f := range []*Filter{s.Includes, s.Excludes} {
		if err := f.validate(); err != nil {
			return err
		}
	}
	return nil
}

func checkAction(a Action, ret *uint) error {
	switch a {
	case ActKill, ActKillProcess, ActKillThread, ActTrap, ActAllow, ActLog:
		if ret != nil {
			return fmt.Errorf("errnoRet is only valid with %s or %s, not %s", ActErrno, ActTrace, a)
		}
	case ActErrno:
		if ret != nil && *ret > maxErrno {
			return fmt.Errorf("errnoRet %d is out of range (0-%d)", *ret, maxErrno)
		}
	case ActTrace:
		if ret != nil && *ret > 0xffff {
			return fmt.Errorf("errnoRet %d is out of range for %s (0-65535)", *ret, a)
		}
	case ActNotify:
		return fmt.Errorf("action %s is not supported: nothing would answer the notifications", a)
	default:
		return fmt.Errorf("unknown action %q (want e.g. %s, %s)", a, ActErrno, ActAllow)
	}
	return nil
}

func (a Arg) validate() error {
	if a.Index > 5 {
		return fmt.Errorf("index %d is out of range (0-5)", a.Index)
	}
	// Such a rule can never match, but libseccomp ignores the high word
	// of valueTwo where the mask's is zero and would apply it whenever
	// the low words match, while the guard would not.
	if a.Op == OpMaskedEqual && a.ValueTwo&^a.Value != 0 {
		return fmt.Errorf("valueTwo %#x has bits outside the mask %#x (value): the check could never hold", a.ValueTwo, a.Value)
	}
	for _, op := range operators {
		if a.Op == op {
			return nil
		}
	}
	if a.Op == "" {
		return fmt.Errorf("op is missing")
	}
	return fmt.Errorf("unknown operator %q (want one of %s)", a.Op, joinOps())
}

func joinOps() string {
	s := make([]string, len(operators))
	for i, op := range operators {
		s[i] = string(op)
	}
	return strings.Join(s, ", ")
}

func (f *Filter) validate() error {
	if f == nil {
		return nil
	}
	for _, a := range f.Arches {
		if _, err := archByName(a); err != nil {
			return err
		}
	}
	if f.MinKernel != "" {
		if _, err := parseKernel(f.MinKernel); err != nil {
			return fmt.Errorf("minKernel: %w", err)
		}
	}
	return nil
}

// ptrTo returns a pointer to v, for errnoRet values in literals.
func ptrTo(v uint) *uint { return &v }

// kernelVersion is a major.minor kernel version; patch levels never
// decide whether a syscall exists.
type kernelVersion struct{ major, minor int }

func (k kernelVersion) less(o kernelVersion) bool {
	return k.major < o.major || (k.major == o.major && k.minor < o.minor)
}

func (k kernelVersion) String() string { return fmt.Sprintf("%d.%d", k.major, k.minor) }

// parseKernel reads "6.8" as well as a uname release like "6.8.0-45-generic".
func parseKernel(s string) (kernelVersion, error) {
	major, rest, _ := strings.Cut(s, ".")
	minor := rest
	if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minor = rest[:i]
	}
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil || ma < 0 || mi < 0 {
		return kernelVersion{}, fmt.Errorf("invalid kernel version %q (want e.g. \"5.8\")", s)
	}
	return kernelVersion{ma, mi}, nil
}
