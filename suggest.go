package main

import (
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// didYouMean is "; did you mean --NAME?" for a misspelled flag (an
// unknown --allow-wirte), or "". urfave/cli's App.Suggest is consulted
// only without an OnUsageError handler, which would print the whole
// help; its SuggestFlag names the closest flag however far, so only one
// as close as a typo is offered (Jaro-Winkler, as urfave/cli scores).
func didYouMean(c *cli.Context, name string) string {
	if cli.SuggestFlag == nil || c == nil || name == "" {
		return ""
	}
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != c.App.Name {
		flags = c.Command.Flags
		if hint := beforeCommand(c.Command.Name, name); hint != "" {
			return hint
		}
	}
	if s := nearFlag(flags, name); s != "" {
		return "; did you mean --" + s + "?"
	}
	s := cli.SuggestFlag(flags, name, false)
	if len(s) < 3 || smetrics.JaroWinkler(name, strings.TrimLeft(s, "-"), 0.7, 4) < suggestScore {
		return ""
	}
	return "; did you mean " + s + "?"
}

// nearFlag is the flag name that name differs from only in case (--Mode)
// or by two adjacent letters swapped (--nte), or "": Jaro-Winkler scores
// such short or capitalised names too low, and urfave/cli's pick for
// --nte was --unsetenv.
func nearFlag(flags []cli.Flag, name string) string {
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 && (strings.EqualFold(n, name) || swapped(n, name)) {
				return n
			}
		}
	}
	return ""
}

// swapped reports whether a and b differ only by one pair of adjacent
// bytes exchanged.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// beforeCommand says where a launcher-only flag given after a command
// goes: its help names it, but a new user writes it where the others go.
func beforeCommand(cmd, name string) string {
	for _, f := range logFlags() {
		if f.Names()[0] == name {
			return ": it goes before the command (omega-run --" + name + " " + flagPlaceholder(f) + " " + cmd + ")"
		}
	}
	return ""
}

// flagPlaceholder is the word in backquotes in a flag's usage (LEVEL).
func flagPlaceholder(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		if _, after, ok := strings.Cut(d.GetUsage(), "`"); ok {
			word, _, _ := strings.Cut(after, "`")
			return word
		}
	}
	return "VALUE"
}

// suggestScore: --alow-write scores 0.98, --nett 0.94, --user-name
// (for --user) 0.89; --bogus 0.74 and --verbose 0.64 get no suggestion.
const suggestScore = 0.85
