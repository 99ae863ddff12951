//go:build !urfave_cli_no_docs

package main

import "github.com/urfave/cli/v2"

// manPage renders app as a section 1 man page (omega-run is a user
// command, not the section 8 urfave/cli picks by default).
func manPage(app *cli.App) (string, error) {
	return app.ToManWithSection(1)
}
