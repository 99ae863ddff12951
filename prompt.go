package main

import (
	"fmt"
	"os"

	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// promptCommand takes a launch's flags, so that the text describes what
// that launch would enforce: its mode and what flags, environment and
// config file add (writable directories, read-only and hidden paths, no
// network).
func promptCommand() *cli.Command {
	return &cli.Command{
		Name:  "prompt",
		Usage: "print the system-prompt text that tells a model what a launch with the same flags, environment and config file enforces",
		Flags: withNamesOnce(append(runFlags(),
			&cli.StringFlag{Name: "workspace", DefaultText: "<data-dir>/workspace", Usage: "the model's working `DIR`"})),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			s, err := resolveSettings(c)
			if err != nil {
				return cli.Exit("omega-run: "+s.fromSource(err), sandbox.ExitLauncher)
			}
			text, err := s.opts.Prompt(c.String("workspace"))
			if err != nil {
				return cli.Exit("omega-run: "+s.fromSource(err), sandbox.ExitLauncher)
			}
			// It names directories (the working one, with --allow-write
			// .) that a repository or a confined program may have named.
			fmt.Fprint(safeLines{os.Stdout}, text)
			return nil
		},
	}
}
