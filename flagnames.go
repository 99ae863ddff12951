package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// urfave/cli computes a flag's names on every Names() call by running a
// regexp over them (FlagNames), and on every start its runFlagActions asks
// IsSet of each flag, which looks the flag up by calling Names() on every
// flag before it: with omega-run's ~30 flags that is ~600 regexp runs,
// about a tenth of the launcher's own CPU (bench/PROFILE.md §3). These
// wrappers answer Names() from a copy taken once; everything else is the
// wrapped flag's own method. The copy is taken without the regexp where
// it would change nothing (flagNames): newApp wraps the flags of three
// commands at every start, ~90 regexp runs again.

type stringFlag struct {
	*cli.StringFlag
	names []string
}

type stringSliceFlag struct {
	*cli.StringSliceFlag
	names []string
}

type boolFlag struct {
	*cli.BoolFlag
	names []string
}

type intFlag struct {
	*cli.IntFlag
	names []string
}

// The capacity equals the length, so a caller that appends to the result
// (urfave/cli's suggestions do) gets a new array instead of sharing ours.
func (f *stringFlag) Names() []string      { return f.names[:len(f.names):len(f.names)] }
func (f *stringSliceFlag) Names() []string { return f.names[:len(f.names):len(f.names)] }
func (f *boolFlag) Names() []string        { return f.names[:len(f.names):len(f.names)] }
func (f *intFlag) Names() []string         { return f.names[:len(f.names):len(f.names)] }

// withNamesOnce wraps each flag of a type omega-run uses; others stay as
// they are.
func withNamesOnce(flags []cli.Flag) []cli.Flag {
	out := make([]cli.Flag, len(flags))
	for i, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			out[i] = &stringFlag{f, flagNames(f.Name, f.Aliases)}
		case *cli.StringSliceFlag:
			out[i] = &stringSliceFlag{f, flagNames(f.Name, f.Aliases)}
		case *cli.BoolFlag:
			out[i] = &boolFlag{f, flagNames(f.Name, f.Aliases)}
		case *cli.IntFlag:
			out[i] = &intFlag{f, flagNames(f.Name, f.Aliases)}
		default:
			out[i] = f
		}
	}
	return out
}

// flagNames is cli.FlagNames(name, aliases): its regexp ("[, ]+.*")
// removes nothing from a part without a comma or a space, and the part
// that has one is left to it.
func flagNames(name string, aliases []string) []string {
	if strings.ContainsAny(name, ", ") || slices.ContainsFunc(aliases, func(a string) bool {
		return strings.ContainsAny(a, ", ")
	}) {
		return cli.FlagNames(name, aliases)
	}
	return append([]string{name}, aliases...)
}

// unwrapFlag returns the urfave/cli flag inside a wrapper, for code that
// switches on urfave/cli's flag types.
func unwrapFlag(f cli.Flag) cli.Flag {
	switch f := f.(type) {
	case *stringFlag:
		return f.StringFlag
	case *stringSliceFlag:
		return f.StringSliceFlag
	case *boolFlag:
		return f.BoolFlag
	case *intFlag:
		return f.IntFlag
	}
	return f
}
