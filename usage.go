package main

import (
	"fmt"
	"strings"

	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// usageError makes a command-line mistake one line and exit 125.
func usageError(help string) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		msg := usageMessage(err.Error())
		if name, ok := strings.CutPrefix(msg, "unknown flag --"); ok {
			if typedShort(c, name) {
				msg = "unknown flag -" + name
			}
			msg += didYouMean(c, name)
		}
		return cli.Exit("omega-run: "+msg+" (see "+help+")", sandbox.ExitLauncher)
	}
}

// typedShort reports whether the unknown flag name was typed with one
// dash (-x): Go's flag package reports -x and --x alike.
func typedShort(c *cli.Context, name string) bool {
	args, _ := c.App.Metadata["args"].([]string)
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-"+name || strings.HasPrefix(a, "-"+name+"=") {
			return true
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			return false
		}
	}
	return false
}

// usageMessage rewords urfave/cli's and the flag package's messages that
// read oddly to a user: one dash for an unknown --flag, Go's parser names.
func usageMessage(msg string) string {
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimLeft(name, "-")
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, flag, ok := strings.Cut(rest, " for flag -"); ok {
			name, why, _ := strings.Cut(flag, ": ")
			if why == "parse error" {
				why = "not a number"
			}
			return "--" + strings.TrimLeft(name, "-") + " " + value + ": " + why
		}
	}
	if rest, ok := strings.CutPrefix(msg, "invalid boolean value "); ok {
		if value, flag, ok := strings.Cut(rest, " for -"); ok {
			name, _, _ := strings.Cut(flag, ":")
			return "--" + strings.TrimLeft(name, "-") + "=" + strings.Trim(value, `"`) + ": want true or false"
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + strings.TrimLeft(name, "-") + " needs a value"
	}
	if head, _, ok := strings.Cut(msg, ": strconv.ParseBool"); ok {
		return head + ": want true or false"
	}
	if head, why, ok := strings.Cut(msg, ": strconv."); ok {
		if strings.HasSuffix(why, "value out of range") {
			return head + ": out of range"
		}
		return head + ": not a number"
	}
	return msg
}

// noArgs refuses arguments to a command that takes none, rather than
// ignoring them.
func noArgs(c *cli.Context) error {
	if c.NArg() == 0 {
		return nil
	}
	name := c.Command.Name
	return cli.Exit(fmt.Sprintf("omega-run: %s takes no arguments, got %q (see omega-run %s --help)", name, c.Args().First(), name), sandbox.ExitLauncher)
}
