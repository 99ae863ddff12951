package main

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"

	"github.com/omega-run/omega-run/profiles"
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

// commandHint follows "PROGRAM: command not found" when PROGRAM is a
// command line quoted as one word ("ls -l"), or, typed without "--"
// before it, reads like one of omega-run's commands (omega-run version,
// omega-run explian): the user meant omega-run's.
func commandHint(c *cli.Context, program string) string {
	if strings.ContainsAny(program, " \t") && strings.TrimSpace(program) != "" {
		return " (a program name with a space in it: to run a command line, drop the quotes or use sh -c '" + program + "')"
	}
	args, _ := c.App.Metadata["args"].([]string)
	if walkFlags(args, c.App, func(string, bool) {}) {
		return "" // omega-run -- version: a program of that name
	}
	if program == "version" {
		return " (omega-run's own version: omega-run --version)"
	}
	for _, cmd := range c.App.Commands {
		if cmd.Hidden {
			continue
		}
		// Closer than a score would ask: helm, a program not installed,
		// is not a typo of help.
		if strings.EqualFold(cmd.Name, program) || swapped(cmd.Name, program) || oneLetterOff(cmd.Name, program) {
			return "; did you mean the command omega-run " + cmd.Name + "?"
		}
	}
	return ""
}

// oneLetterOff reports whether a and b differ by one letter left out or
// added (chck, checkk).
func oneLetterOff(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a) != len(b)+1 {
		return false
	}
	for i := range len(a) {
		if a[:i]+a[i+1:] == b {
			return true
		}
	}
	return false
}

// distinctiveFlags are omega-run's flags that a program is unlikely to
// have too, so that one after the program's name was meant for omega-run
// (omega-run claude --allow-write .). Not --mode, --net, --read-only,
// --user, --hostname, --data-dir or --setenv (mkdir, docker, curl, etcd
// and systemd-run have them), nor --seccomp (bwrap's and firejail's).
var distinctiveFlags = []string{"allow-write", "allow-socket", "fail-closed", "writable-git-config", "log-denials"}

// misplacedFlags is a warning naming omega-run's distinctive flags given
// after the program's name, which go to the program as its arguments, or
// "". Not when "--" comes before the program, which says the words after
// it are the program's; nor after a "--" among the program's arguments;
// nor when the program is omega-run again, whose flags they are.
func misplacedFlags(args []string, app *cli.App) string {
	end, _ := flagsEnd(args, app, func(string, bool) {})
	if end >= len(args) || args[end] == "--" || app.Command(args[end]) != nil || filepath.Base(args[end]) == app.Name {
		return ""
	}
	var found []string
	for i := end + 1; i < len(args) && args[i] != "--"; i++ {
		name, _, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !strings.HasPrefix(args[i], "--") || !slices.Contains(distinctiveFlags, name) {
			continue
		}
		word := args[i]
		if !hasValue && takesValue(name, app.Flags) && i+1 < len(args) {
			i++
			word += " " + profiles.ShellWord(args[i])
		}
		found = append(found, word)
	}
	if len(found) == 0 {
		return ""
	}
	prog, them, it := profiles.ShellWord(args[end]), strings.Join(found, " "), "it"
	if len(found) > 1 {
		it = "them"
	}
	return "omega-run passes " + strings.Join(found, ", ") + " on to " + prog + ", as every word after the program's name: put " +
		it + " before the program for omega-run (omega-run " + them + " " + prog + "), or -- before the program to pass " + it + " on without this warning"
}
