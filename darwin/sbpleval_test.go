package darwin

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// This file is a small reader and evaluator of the SBPL this package
// renders, so that tests can ask what a profile decides for an operation
// on a path instead of matching its text. It knows the forms the renderer
// writes: (version 1), (allow|deny OP... FILTER...) with the filters
// literal, subpath and regex over "…", #"…", (param "X") and
// (string-append …), and (target WHO) for signals, where the "path"
// asked about is WHO (same-sandbox, others).
//
// Seatbelt's precedence is documented nowhere. The last matching rule
// wins, as every guide says; but a rule naming an operation itself
// (file-write-unlink) has been seen to beat one that names it through a
// wildcard (file-write*) whatever their order (nono #697). decide answers
// under both readings and the tests want the same answer from each, so
// that the profile holds whichever Seatbelt does.

type sexp struct {
	atom   string // an atom, or a string's value
	str    bool   // a "…" string
	regex  bool   // a #"…" regex
	list   []sexp
	isList bool
}

func parseSBPL(text string) ([]sexp, error) {
	var stack [][]sexp
	var top []sexp
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ' ' || c == '\n' || c == '\t':
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '(':
			stack = append(stack, top)
			top = nil
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("unbalanced ) at %d", i)
			}
			done := sexp{list: top, isList: true}
			top = append(stack[len(stack)-1], done)
			stack = stack[:len(stack)-1]
		case c == '"' || c == '#' && i+1 < len(text) && text[i+1] == '"':
			rx := c == '#'
			if rx {
				i++
			}
			var b strings.Builder
			for i++; ; i++ {
				if i >= len(text) {
					return nil, fmt.Errorf("unterminated string")
				}
				if text[i] == '\\' && i+1 < len(text) {
					i++
				} else if text[i] == '"' {
					break
				}
				b.WriteByte(text[i])
			}
			top = append(top, sexp{atom: b.String(), str: !rx, regex: rx})
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \n\t()\";", rune(text[j])) {
				j++
			}
			top = append(top, sexp{atom: text[i:j]})
			i = j - 1
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("%d unclosed (", len(stack))
	}
	return top, nil
}

// rule is one (allow|deny …) form, its filters reduced to matchers.
type rule struct {
	allow   bool
	ops     []string
	filters []func(string) bool // none: every path
}

// compile reads a rendered profile with its parameters bound.
func compile(pr Profile) ([]rule, error) {
	forms, err := parseSBPL(pr.Text)
	if err != nil {
		return nil, err
	}
	params := map[string]string{}
	for _, p := range pr.Params {
		params[p.Name] = p.Value
	}
	var rules []rule
	for _, f := range forms {
		if !f.isList || len(f.list) == 0 || f.list[0].atom == "version" {
			continue
		}
		r := rule{allow: f.list[0].atom == "allow"}
		if !r.allow && f.list[0].atom != "deny" {
			return nil, fmt.Errorf("unknown form %q", f.list[0].atom)
		}
		for _, x := range f.list[1:] {
			if !x.isList {
				r.ops = append(r.ops, x.atom)
				continue
			}
			m, err := filter(x, params)
			if err != nil {
				return nil, err
			}
			r.filters = append(r.filters, m)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func filter(x sexp, params map[string]string) (func(string) bool, error) {
	if len(x.list) != 2 {
		return nil, fmt.Errorf("filter %v: want one argument", x.list)
	}
	arg := x.list[1]
	if x.list[0].atom == "target" {
		return func(who string) bool { return who == arg.atom }, nil
	}
	if x.list[0].atom == "regex" {
		if !arg.regex {
			return nil, fmt.Errorf("regex of %v", arg)
		}
		re, err := regexp.Compile(arg.atom)
		if err != nil {
			return nil, err
		}
		return re.MatchString, nil
	}
	s, err := stringValue(arg, params)
	if err != nil {
		return nil, err
	}
	switch x.list[0].atom {
	case "literal":
		return func(p string) bool { return p == s }, nil
	case "subpath":
		return func(p string) bool { return p == s || strings.HasPrefix(p, s+"/") }, nil
	}
	return nil, fmt.Errorf("unknown filter %q", x.list[0].atom)
}

func stringValue(x sexp, params map[string]string) (string, error) {
	switch {
	case x.str:
		return x.atom, nil
	case x.isList && len(x.list) == 2 && x.list[0].atom == "param":
		v, ok := params[x.list[1].atom]
		if !ok {
			return "", fmt.Errorf("undefined param %q", x.list[1].atom)
		}
		return v, nil
	case x.isList && len(x.list) > 0 && x.list[0].atom == "string-append":
		var b strings.Builder
		for _, a := range x.list[1:] {
			v, err := stringValue(a, params)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("not a string: %+v", x)
}

// covers reports whether the rule names op, exactly or by a wildcard;
// exact tells which.
func (r rule) covers(op string) (ok, exact bool) {
	for _, o := range r.ops {
		switch {
		case o == op:
			return true, true
		case o == "default", strings.HasSuffix(o, "*") && strings.HasPrefix(op, strings.TrimSuffix(o, "*")):
			ok = true
		}
	}
	return ok, false
}

func (r rule) matches(path string) bool {
	if len(r.filters) == 0 {
		return true
	}
	for _, f := range r.filters {
		if f(path) {
			return true
		}
	}
	return false
}

// decide returns whether rules allow op on path when the last matching
// rule wins, and when a matching rule that names op exactly wins over
// any that names it by a wildcard.
func decide(rules []rule, op, path string) (lastMatch, exactFirst bool) {
	var last, lastExact *rule
	for i := range rules {
		ok, exact := rules[i].covers(op)
		if !ok || !rules[i].matches(path) {
			continue
		}
		last = &rules[i]
		if exact {
			lastExact = &rules[i]
		}
	}
	if last == nil {
		return false, false // Seatbelt's own default is deny
	}
	if lastExact == nil {
		lastExact = last
	}
	return last.allow, lastExact.allow
}

// checkDecision fails t unless both readings of pr give want for op on
// path.
func checkDecision(t *testing.T, pr Profile, op, path string, want bool) {
	t.Helper()
	rules, err := compile(pr)
	if err != nil {
		t.Fatalf("%v in\n%s", err, pr.Text)
	}
	last, exact := decide(rules, op, path)
	verdict := map[bool]string{true: "allowed", false: "denied"}
	if last != want || exact != want {
		t.Errorf("%s %s: %s by the last matching rule, %s by the exact operation's; want %s\n%s",
			op, path, verdict[last], verdict[exact], verdict[want], expand(pr))
	}
}
