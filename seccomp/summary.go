package seccomp

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// maxNames is how many syscall names a summary line lists before "…".
const maxNames = 8

// Summarize is Describe in a few lines, for explain's default text: the
// profile and its default action, each unconditional action with how many
// syscalls it covers, and the syscalls with argument checks grouped by
// what they stop. A nil profile is "none".
func Summarize(p *Profile) string {
	if p == nil {
		return "none (no filter)\n"
	}
	name := p.Source
	if p.builtin != "" {
		name += " (built in)"
	}
	pl, err := newPlan(p, currentHost())
	if err != nil {
		return fmt.Sprintf("%s; error: %v\n", name, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s; default action %s%s\n", name, describeRet(pl.def), summarizeUncond(pl))
	if checks := summarizeCond(pl); checks != "" {
		fmt.Fprintf(&b, "argument checks: %s\n", checks)
	}
	if !Enabled && !p.precompiled() {
		b.WriteString("not enforced: this omega-run has no libseccomp (built without cgo)\n")
	}
	var names []string
	for _, sp := range pl.syscalls {
		names = append(names, sp.name)
	}
	if unknown := unknownSyscalls(names); len(unknown) > 0 {
		fmt.Fprintf(&b, "not enforced, unknown to libseccomp %s: %s\n", Version(), nameList(unknown))
	}
	return b.String()
}

// summarizeUncond is "; fail with EPERM (32 syscalls), ENOSYS (3 syscalls)": the
// syscalls each unconditional action covers, counted, or named when
// there are only a few.
func summarizeUncond(pl *plan) string {
	groups, rets := uncondGroups(pl)
	var parts []string
	errnoSeen := false
	for _, r := range rets {
		what := describeRet(r)
		if r&^0xffff == retErrno {
			// After the first errno, the others read as a list of errnos.
			if errnoSeen {
				what = strings.TrimPrefix(what, "fail with ")
			}
			errnoSeen = true
		}
		n := plural(len(groups[r]), "syscall")
		if len(groups[r]) <= 2 {
			n = strings.Join(groups[r], ", ")
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", what, n))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

// summarizeCond groups the syscalls with argument checks by what the
// checks stop: the profile's own rules first, then each kind omega-run
// adds ("set-id bits on chmod/creat/mknod/open (10 calls)").
func summarizeCond(pl *plan) string {
	var kinds []string // the profile's ("") first, then in order seen
	groups := map[string][]string{}
	for _, sp := range pl.syscalls {
		for _, r := range append(append([]condRule{}, sp.guard...), sp.native...) {
			if _, ok := groups[r.stops]; !ok {
				kinds = append(kinds, r.stops)
			}
			if !slices.Contains(groups[r.stops], sp.name) {
				groups[r.stops] = append(groups[r.stops], sp.name)
			}
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return kinds[i] == "" && kinds[j] != "" })
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		what := k
		if what == "" {
			what = "profile rules"
		}
		parts[i] = what + " on " + nameList(groups[k])
	}
	return strings.Join(parts, "; ")
}

// nameList joins syscall names with "/", each variant of another call in
// the list (fchmod, fchmodat, openat2) folded into it, and the count when
// that or a cap shortened it.
func nameList(names []string) string {
	var bases []string
	for _, n := range names {
		if b := baseCall(n, names); !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	shown := bases
	if len(shown) > maxNames {
		shown = append(slices.Clone(shown[:maxNames]), "…")
	}
	s := strings.Join(shown, "/")
	if len(bases) < len(names) || len(bases) > maxNames {
		s += fmt.Sprintf(" (%d calls)", len(names))
	}
	return s
}

// baseCall strips what makes name a variant of another call in names:
// an "f" prefix, an "at" or "at2" suffix (fchmodat2 → fchmod → chmod).
func baseCall(name string, names []string) string {
	for {
		switch {
		case strings.HasSuffix(name, "at2") && slices.Contains(names, strings.TrimSuffix(name, "at2")):
			name = strings.TrimSuffix(name, "at2")
		case strings.HasSuffix(name, "at") && slices.Contains(names, strings.TrimSuffix(name, "at")):
			name = strings.TrimSuffix(name, "at")
		case strings.HasPrefix(name, "f") && slices.Contains(names, name[1:]):
			name = name[1:]
		default:
			return name
		}
	}
}
