// The Go runtime would otherwise keep the cgroup CPU-quota files open to
// re-size GOMAXPROCS, on fds 3 and 4 of a caller that passed none: a
// launcher lives for milliseconds, and --preserve-fds must be able to tell
// the caller's fds from the runtime's.
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command omega-run runs a program so that it can read and run what it
// needs but write only where it is allowed.
package main

import (
	"errors"
	"os"
	"strings"

	"github.com/omega-run/omega-run/internal/secureexec"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

func main() {
	// First: a setuid copy must not read a flag, a config or a spec.
	if err := secureexec.Check(); err != nil {
		printError("omega-run: "+err.Error(), os.Args)
		os.Exit(sandbox.ExitLauncher)
	}
	runInitIfRequested()
	status := run(os.Args)
	sandbox.Release()
	sandbox.Exit(status)
}

// run executes the CLI and returns the process exit status.
func run(args []string) int {
	app := newApp()
	args = helpBeforeProgram(args, app)
	if dashesFirst(args, app) {
		// A program named like a command: omega-run -- check, -- help.
		app.Commands = nil
	}
	app.Metadata = map[string]any{"args": args}
	if flag, help := dashesAsValue(args, app); flag != "" {
		// urfave/cli would take the "--" for the value: --allow-write
		// /cwd/--: no such file or directory.
		printError("omega-run: --"+flag+" needs a value (see "+help+")", args)
		return sandbox.ExitLauncher
	}
	status := 0
	app.ExitErrHandler = func(_ *cli.Context, err error) {
		status = exitStatus(err, args)
	}
	if err := app.Run(args); err != nil && status == 0 {
		status = exitStatus(err, args)
	}
	return status
}

// exitStatus prints err as one line and maps it to DESIGN.md's codes.
func exitStatus(err error, args []string) int {
	if err == nil {
		return 0
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			printError(msg, args)
		}
		return ec.ExitCode()
	}
	printError("omega-run: "+err.Error(), args)
	var se *sandbox.Error
	if errors.As(err, &se) {
		return se.Code
	}
	return sandbox.ExitLauncher
}

// dashesFirst tells whether "--" comes before any word that is neither a
// flag nor a flag's value: `omega-run [flags] -- check` runs a program
// named check. urfave/cli would hand the first word after "--" to the
// check command. With --help, it shows that command's help.
func dashesFirst(args []string, app *cli.App) bool {
	help := false
	dashes := walkFlags(args, app, func(flag string, _ bool) { help = help || flag == "help" || flag == "h" })
	return dashes && !help
}

// helpBeforeProgram drops the program from a command line that asks for
// help before it (omega-run -h -- claude): the CLI library would take the
// program for a help topic, fail to find it and exit 3. A command named
// after "--" stays (omega-run --help -- check: that command's help).
func helpBeforeProgram(args []string, app *cli.App) []string {
	help := false
	end, _ := flagsEnd(args, app, func(flag string, _ bool) { help = help || flag == "help" || flag == "h" })
	switch {
	case !help || end == len(args):
		return args
	case args[end] == "--" && end+1 < len(args) && app.Command(args[end+1]) != nil:
		return args
	}
	return args[:end]
}

// dashesAsValue finds a flag that takes a value followed by "--" (omega-run
// --allow-write -- true: the value was forgotten) and returns its name and
// where its help is. --flag=-- stays a value, given on purpose.
func dashesAsValue(args []string, app *cli.App) (flag, help string) {
	flags, help, inCommand := app.Flags, "omega-run --help", false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return "", ""
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if cmd := app.Command(a); cmd != nil && !inCommand {
				flags, help, inCommand = cmd.Flags, "omega-run "+cmd.Name+" --help", true
				continue
			}
			return "", "" // the program, or a command's argument
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && takesValue(name, flags) {
			if i+1 < len(args) && args[i+1] == "--" {
				return name, help
			}
			i++
		}
	}
	return "", ""
}
