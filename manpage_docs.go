//go:build !urfave_cli_no_docs

package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// manPage renders app as a section 1 man page (omega-run is a user
// command, not the section 8 urfave/cli picks by default), with an
// ENVIRONMENT section that urfave/cli leaves out.
func manPage(app *cli.App) (string, error) {
	// The generator reads flag texts as markdown: <data-dir> would be a tag.
	for _, flags := range allFlags(app) {
		for _, f := range flags {
			if sf, ok := unwrapFlag(f).(*cli.StringFlag); ok {
				sf.DefaultText = strings.NewReplacer("<", `\<`, ">", `\>`).Replace(sf.DefaultText)
			}
		}
	}
	page, err := app.ToManWithSection(1)
	if err != nil {
		return "", err
	}
	return page + environmentSection(app), nil
}

// allFlags is the app's flag list and each visible command's.
func allFlags(app *cli.App) [][]cli.Flag {
	out := [][]cli.Flag{app.Flags}
	for _, c := range app.Commands {
		if !c.Hidden {
			out = append(out, c.Flags)
		}
	}
	return out
}

// environmentSection lists each variable a flag reads, once, in roff.
func environmentSection(app *cli.App) string {
	seen := map[string]string{}
	for _, flags := range allFlags(app) {
		for _, f := range flags {
			name, envs := flagIdentity(unwrapFlag(f))
			for _, e := range envs {
				if _, ok := seen[e]; !ok {
					seen[e] = name
				}
			}
		}
	}
	vars := make([]string, 0, len(seen))
	for e := range seen {
		vars = append(vars, e)
	}
	slices.Sort(vars)
	var b strings.Builder
	b.WriteString(".SH ENVIRONMENT\nEach variable sets what its flag sets; a flag given on the command line wins, and the config file comes after both.\n")
	for _, e := range vars {
		fmt.Fprintf(&b, ".TP\n\\fB%s\\fP\nas \\fB--%s\\fP\n", e, seen[e])
	}
	return b.String()
}
