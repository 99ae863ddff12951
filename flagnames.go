package main

import "github.com/urfave/cli/v2"

// urfave/cli computes a flag's names on every Names() call by running a
// regexp over them (FlagNames), and on every start its runFlagActions asks
// IsSet of each flag, which looks the flag up by calling Names() on every
// flag before it: with omega-run's ~30 flags that is ~600 regexp runs,
// about a tenth of the launcher's own CPU (bench/PROFILE.md §3). These
// wrappers answer Names() from a copy taken once; everything else is the
// wrapped flag's own method.

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
			out[i] = &stringFlag{f, f.Names()}
		case *cli.StringSliceFlag:
			out[i] = &stringSliceFlag{f, f.Names()}
		case *cli.BoolFlag:
			out[i] = &boolFlag{f, f.Names()}
		case *cli.IntFlag:
			out[i] = &intFlag{f, f.Names()}
		default:
			out[i] = f
		}
	}
	return out
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
