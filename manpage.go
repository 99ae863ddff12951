package main

import (
	"fmt"
	"os"

	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// manCommand prints omega-run(1), generated from the CLI definition, so
// that the man page never drifts from --help. `make install` writes it to
// $(PREFIX)/share/man/man1/omega-run.1. It is "manpage", not "man", so
// that `omega-run man ls` still runs man.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "manpage",
		Usage:  "print the man page (roff, section 1; `go run . manpage`: make builds leave the generator out)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			page, err := manPage(c.App)
			if err != nil {
				return cli.Exit("omega-run: manpage: "+err.Error(), sandbox.ExitLauncher)
			}
			fmt.Fprint(os.Stdout, page)
			return nil
		},
	}
}
