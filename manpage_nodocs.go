//go:build urfave_cli_no_docs

package main

import (
	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// manCommand is a stub in release builds: urfave/cli's man page generator
// (and the markdown library it pulls in, ~0.6 ms of package init on every
// start) is left out with the urfave_cli_no_docs tag. `make install`
// generates the page with `go run . manpage` instead.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "manpage",
		Usage:  "print the man page (roff, section 1)",
		Hidden: true,
		Action: func(*cli.Context) error {
			return cli.Exit("omega-run: this build leaves out the man page generator (urfave_cli_no_docs): run `go run . manpage` in the source tree", sandbox.ExitLauncher)
		},
	}
}
