package profiles

import "slices"

// HistoryDirName is the directory below the data dir holding the
// sandbox's own shell histories, one file per shell.
const HistoryDirName = "history"

// shellHistories are the shells that keep a history in $HISTFILE, with
// the rc files below home an interactive session may read (an assignment
// of HISTFILE there wins over the environment's). dash keeps none; fish
// keeps its own in ~/.local/share/fish, whatever HISTFILE says.
var shellHistories = map[string][]string{
	"bash": {".bashrc", ".bash_profile", ".bash_login", ".profile"},
	"zsh":  {".zshenv", ".zprofile", ".zshrc", ".zlogin"},
	"ksh":  {".kshrc", ".profile"},
	"mksh": {".mkshrc", ".profile"},
}

// ShellHistory is the name of the sandbox's own history file for the
// shell at path (its real binary: /bin/sh is dash or bash), and the rc
// files below home that args leave it reading; name is "" for a shell
// that keeps no history in $HISTFILE.
func ShellHistory(realPath string, args []string) (name string, rcs []string) {
	shell := ShellName(realPath)
	rcs, ok := shellHistories[shell]
	if !ok {
		return "", nil
	}
	return shell + "_history", withoutSkippedRCs(shell, rcs, args)
}

// withoutSkippedRCs leaves out the rc files that args tell the shell
// not to read (bash --norc, --noprofile; zsh -f), and adds bash's
// --rcfile.
func withoutSkippedRCs(shell string, rcs, args []string) []string {
	rcs = slices.Clone(rcs)
	for i, a := range args {
		switch {
		case a == "--":
			return rcs
		case shell == "bash" && a == "--norc":
			rcs = slices.DeleteFunc(rcs, func(s string) bool { return s == ".bashrc" })
		case shell == "bash" && a == "--noprofile":
			rcs = slices.DeleteFunc(rcs, func(s string) bool { return s != ".bashrc" })
		case shell == "bash" && (a == "--rcfile" || a == "--init-file") && i+1 < len(args):
			rcs = append(slices.DeleteFunc(rcs, func(s string) bool { return s == ".bashrc" }), args[i+1])
		case shell == "zsh" && (a == "-f" || a == "--no-rcs" || a == "--norcs"):
			return nil
		}
	}
	return rcs
}
