package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// completionCommand prints a bash or zsh completion script generated from
// the CLI definition (flags, subcommands, the program after them). The
// scripts are static: completing never runs omega-run. `make install`
// writes both.
func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash or zsh",
		ArgsUsage: "bash|zsh",
		Hidden:    true,
		Action: func(c *cli.Context) error {
			spec := completionSpec(c.App)
			switch shell := c.Args().First(); shell {
			case "bash":
				fmt.Fprint(os.Stdout, bashCompletion(spec))
			case "zsh":
				fmt.Fprint(os.Stdout, zshCompletion(spec))
			default:
				return cli.Exit(fmt.Sprintf("omega-run: completion: shell %q: want bash or zsh", shell), sandbox.ExitLauncher)
			}
			return nil
		},
	}
}

// compFlag is one flag as the completion scripts see it.
type compFlag struct {
	names  []string // with dashes: "--mode", "-h"
	usage  string
	value  bool     // takes a value
	repeat bool     // may be given more than once
	words  []string // the fixed values it completes to
	kind   string   // what else: "path", "dir", "user", "group", "env" or ""
}

// compCmd is the top level ("" name) or one subcommand.
type compCmd struct {
	name, usage string
	flags       []compFlag
	program     bool // takes PROGRAM [ARGS...]
}

// compSpec is everything the scripts complete.
type compSpec struct {
	app  string
	root compCmd
	cmds []compCmd // visible subcommands
}

// flagWords are the fixed values of the flags that have them. Beyond
// these, a string flag's value completes to what its usage placeholder
// names (flagKind).
func flagWords() map[string][]string {
	modes := make([]string, len(profiles.Modes))
	for i, m := range profiles.Modes {
		modes[i] = string(m)
	}
	return map[string][]string{
		"mode":       modes,
		"net":        {string(profiles.NetHost), string(profiles.NetNone)},
		"seccomp":    {profiles.SeccompDefault, profiles.SeccompStrict, profiles.SeccompNone},
		"log-level":  {"debug", "info", "warning", "error"},
		"log-format": {"text", "json"},
		"os":         {"darwin", "linux"},
	}
}

// completionSpec reads app's definition; hidden flags and commands are
// left out.
func completionSpec(app *cli.App) compSpec {
	words := flagWords()
	s := compSpec{app: app.Name, root: compCmd{usage: app.Usage, program: app.Action != nil}}
	s.root.flags = compFlags(app.VisibleFlags(), words)
	for _, c := range app.VisibleCommands() {
		cmd := compCmd{name: c.Name, usage: c.Usage, program: strings.Contains(c.ArgsUsage, "PROGRAM")}
		cmd.flags = compFlags(c.VisibleFlags(), words)
		if !hasFlag(cmd.flags, "--help") {
			cmd.flags = append(cmd.flags, compFlag{names: []string{"--help", "-h"}, usage: "show help"})
		}
		s.cmds = append(s.cmds, cmd)
	}
	return s
}

func compFlags(flags []cli.Flag, words map[string][]string) []compFlag {
	var out []compFlag
	for _, f := range flags {
		cf := compFlag{}
		for _, n := range f.Names() {
			if len(n) == 1 {
				cf.names = append(cf.names, "-"+n)
			} else {
				cf.names = append(cf.names, "--"+n)
			}
		}
		placeholder := ""
		if d, ok := f.(cli.DocGenerationFlag); ok {
			if parts := strings.Split(d.GetUsage(), "`"); len(parts) >= 3 {
				placeholder = parts[1]
			}
			cf.usage = strings.ReplaceAll(d.GetUsage(), "`", "")
			cf.value = d.TakesValue()
		}
		if s, ok := f.(cli.DocGenerationSliceFlag); ok {
			cf.repeat = s.IsSliceFlag()
		}
		if cf.value {
			cf.words = words[f.Names()[0]]
			if takesString(f) {
				cf.kind = flagKind(f.Names()[0], placeholder, cf.words != nil)
			}
		}
		out = append(out, cf)
	}
	return out
}

// flagKind reads a string flag's usage placeholder (`PATH`, `NAME|UID`
// …): with none, the value is a path (a directory for a *dir flag) unless
// the flag has fixed words.
func flagKind(name, placeholder string, hasWords bool) string {
	switch {
	case placeholder == "" && hasWords:
		return ""
	case placeholder == "" || strings.Contains(placeholder, "PATH") || strings.Contains(placeholder, "FILE") || strings.Contains(placeholder, "DIR"):
		if strings.HasSuffix(name, "dir") || strings.Contains(placeholder, "DIR") {
			return "dir"
		}
		return "path"
	case strings.Contains(placeholder, "UID"):
		return "user"
	case strings.Contains(placeholder, "GID") || strings.Contains(placeholder, "GROUP"):
		return "group"
	case strings.HasPrefix(placeholder, "KEY"):
		return "env"
	}
	return ""
}

// takesString reports whether f's value is a string, which may be a path
// (an int flag's is not).
func takesString(f cli.Flag) bool {
	switch unwrapFlag(f).(type) {
	case *cli.StringFlag, *cli.StringSliceFlag, *cli.PathFlag, *cli.GenericFlag:
		return true
	}
	return false
}

func hasFlag(flags []compFlag, name string) bool {
	for _, f := range flags {
		for _, n := range f.names {
			if n == name {
				return true
			}
		}
	}
	return false
}

// allCmds is the top level followed by the subcommands.
func (s compSpec) allCmds() []compCmd { return append([]compCmd{s.root}, s.cmds...) }

func (s compSpec) cmdNames() string {
	names := make([]string, len(s.cmds))
	for i, c := range s.cmds {
		names[i] = c.name
	}
	return strings.Join(names, " ")
}

// funcName is the shell function prefix: "_omega_run".
func (s compSpec) funcName() string { return "_" + strings.ReplaceAll(s.app, "-", "_") }
