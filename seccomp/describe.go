package seccomp

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Describe renders the rules p enforces on this host, after includes,
// excludes and the rules omega-run adds, for `omega-run explain`. A nil
// profile is "none".
func Describe(p *Profile) string {
	if p == nil {
		return "seccomp: none (no filter)\n"
	}
	var b strings.Builder
	if p.builtin != "" {
		fmt.Fprintf(&b, "seccomp profile: %s (built in)\n", p.Source)
	} else {
		fmt.Fprintf(&b, "seccomp profile: %s\n", p.Source)
	}
	pl, err := newPlan(p, currentHost())
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	if !Enabled && !p.precompiled() {
		b.WriteString("note: this omega-run has no libseccomp (built without cgo): the profile cannot be enforced\n")
	}
	fmt.Fprintf(&b, "default action: %s\n", describeRet(pl.def))
	names := make([]string, len(pl.arches))
	for i, a := range pl.arches {
		names[i] = a.name
	}
	example := " (e.g. i386 int 0x80 on amd64)"
	if slices.Contains(names, "x86") { // a profile that lists it has it as its own
		example = ""
	}
	fmt.Fprintf(&b, "architectures: %s; every call of another ABI%s: %s\n",
		strings.Join(names, ", "), example, describeRet(badArchRet))
	if len(p.Flags) > 0 {
		fmt.Fprintf(&b, "flags: %s\n", strings.Join(p.Flags, ", "))
	}
	describeUncond(&b, pl)
	describeCond(&b, pl)
	describeUnknown(&b, pl)
	return b.String()
}

// describeUnknown names the syscalls Compile will skip because this
// build's libseccomp does not know them.
func describeUnknown(b *strings.Builder, pl *plan) {
	var names []string
	for _, sp := range pl.syscalls {
		names = append(names, sp.name)
	}
	if unknown := unknownSyscalls(names); len(unknown) > 0 {
		fmt.Fprintf(b, "\nnot enforced, unknown to libseccomp %s (they get the default action):\n", Version())
		wrap(b, unknown, "  ", 78)
	}
}

// describeUncond lists the syscalls of each unconditional action.
func describeUncond(b *strings.Builder, pl *plan) {
	groups, rets := uncondGroups(pl)
	for _, r := range rets {
		fmt.Fprintf(b, "\n%s (%s):\n", describeRet(r), plural(len(groups[r]), "syscall"))
		wrap(b, groups[r], "  ", 78)
	}
}

// describeCond lists each syscall with argument checks, in the order the
// filter applies them.
func describeCond(b *strings.Builder, pl *plan) {
	native := currentHost().arch
	first := true
	for _, sp := range pl.syscalls {
		rules := append(append([]condRule{}, sp.guard...), sp.native...)
		if len(rules) == 0 {
			continue
		}
		if first {
			b.WriteString("\nwith argument checks (first match decides):\n")
			first = false
		}
		fmt.Fprintf(b, "  %s\n", sp.name)
		always := false
		for _, r := range rules {
			note := ""
			if r.note != "" {
				note = "  (" + r.note + ")"
			}
			args := r.argsOn(native)
			if always = len(args) == 0; always {
				// A guard without arguments (openat2): nothing after it runs.
				fmt.Fprintf(b, "    %s always%s\n", describeRet(r.act), note)
				break
			}
			fmt.Fprintf(b, "    %s if %s%s\n", describeRet(r.act), describeArgs(args), note)
		}
		if always {
			continue
		}
		fallback := pl.def
		if sp.uncond != nil {
			fallback = *sp.uncond
		}
		fmt.Fprintf(b, "    otherwise %s\n", describeRet(fallback))
	}
}

func describeArgs(args []Arg) string {
	ops := map[Operator]string{
		OpNotEqual: "!=", OpLessThan: "<", OpLessEqual: "<=", OpEqualTo: "==",
		OpGreaterEqual: ">=", OpGreaterThan: ">",
	}
	parts := make([]string, len(args))
	for i, a := range args {
		if a.Op == OpMaskedEqual {
			parts[i] = fmt.Sprintf("arg%d & %#x == %#x", a.Index, a.Value, a.ValueTwo)
			continue
		}
		parts[i] = fmt.Sprintf("arg%d %s %#x", a.Index, ops[a.Op], a.Value)
	}
	return strings.Join(parts, " and ")
}

// errnoNames names the errnos profiles commonly return (Linux numbers).
var errnoNames = map[uint32]string{1: "EPERM", 13: "EACCES", 22: "EINVAL", 38: "ENOSYS", 95: "EOPNOTSUPP"}

func describeRet(r ret) string {
	data := uint32(r) & 0xffff
	switch r &^ 0xffff {
	case retAllow:
		return "allow"
	case retLog:
		return "allow and log"
	case retKillProcess:
		return "kill process"
	case retKillThread:
		return "kill thread"
	case retTrap:
		return "trap (SIGSYS)"
	case retTrace:
		return fmt.Sprintf("trace (%d)", data)
	case retErrno:
		if name, ok := errnoNames[data]; ok {
			return "fail with " + name
		}
		return fmt.Sprintf("fail with errno %d", data)
	}
	return fmt.Sprintf("action %#x", uint32(r))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// wrap writes words in lines of at most width columns.
func wrap(b *strings.Builder, words []string, indent string, width int) {
	line := indent
	for _, w := range words {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
}

// uncondGroups are the syscalls of each unconditional action, and the
// actions in order.
func uncondGroups(pl *plan) (map[ret][]string, []ret) {
	groups := map[ret][]string{}
	for _, sp := range pl.syscalls {
		if sp.uncond != nil && len(sp.guard)+len(sp.native) == 0 {
			groups[*sp.uncond] = append(groups[*sp.uncond], sp.name)
		}
	}
	rets := make([]ret, 0, len(groups))
	for r := range groups {
		rets = append(rets, r)
	}
	sort.Slice(rets, func(i, j int) bool { return rets[i] < rets[j] })
	return groups, rets
}
