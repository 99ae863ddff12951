//go:build urfave_cli_no_docs

package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// manPage is unavailable in `make` builds: urfave/cli's man page
// generator (and the markdown library it pulls in, ~0.6 ms of package
// init on every start) is left out with the urfave_cli_no_docs tag.
// `make install` generates the page with `go run . manpage` instead.
func manPage(*cli.App) (string, error) {
	return "", errors.New("this build leaves out the man page generator (urfave_cli_no_docs, as every make build): run `go run . manpage` in the source tree")
}
