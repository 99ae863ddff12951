package profiles

import (
	"path/filepath"
	"slices"
	"strings"
)

// shells are the command interpreters whose interactive sessions get the
// state sync of the tools a person starts in them: `omega-run -- bash`,
// then `claude`, is as common as `omega-run -- claude`.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"}

// ReadsCommandsFromStdin reports whether path run with args is a shell
// that reads its commands from its standard input: no -c command and no
// script operand (or -s, whose operands are positional parameters). The
// caller checks that the input is a terminal, so that an agent's
// hundreds of `bash -c` and piped scripts pay for no state sync.
func ReadsCommandsFromStdin(path string, args []string) bool {
	shell := ShellName(path)
	if !slices.Contains(shells, shell) {
		return false
	}
	stdin := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			return stdin || i == len(args)-1
		case a == "--command" || strings.HasPrefix(a, "--command="): // fish
			return false
		case a == "--rcfile" || a == "--init-file" || a == "--init-command": // take a value
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			letters := a[1:]
			if a[0] == '-' && strings.Contains(letters, "c") {
				return false // a command
			}
			stdin = stdin || a[0] == '-' && strings.Contains(letters, "s")
			if strings.ContainsAny(letters, "oO") || shell == "fish" && strings.Contains(letters, "C") {
				i++ // -o option, +O shopt, fish's -C command run before the session: a value
			}
		default:
			return stdin // a script, unless -s made it a parameter
		}
	}
	return true
}

// ShellName is the shell at path without its version (zsh5, ksh93).
func ShellName(path string) string {
	return strings.TrimRight(filepath.Base(path), "0123456789.")
}

// SessionSync is the tool whose state a shell's session syncs for what is
// started in it: the one with a state file to sync (Claude Code).
func SessionSync() *Program {
	for i := range Programs {
		if len(Programs[i].Sync) > 0 {
			return &Programs[i]
		}
	}
	return nil
}
