package main

import (
	"fmt"
	"os"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

func promptCommand() *cli.Command {
	return &cli.Command{
		Name:  "prompt",
		Usage: "print the system-prompt text that tells a model what a mode enforces",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mode", Value: string(profiles.ModeSandbox), EnvVars: []string{"OMEGA_SANDBOX_MODE"}, Usage: "sandbox, rx or rwx"},
			&cli.StringFlag{Name: "workspace", DefaultText: "<data-dir>/workspace", Usage: "the model's working `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			mode, err := profiles.ParseMode(flagView{c}.String("mode"))
			if err != nil {
				return cli.Exit("omega-run: --mode: "+err.Error(), sandbox.ExitLauncher)
			}
			ws := c.String("workspace")
			if ws == "" {
				pol, err := (sandbox.Options{Mode: mode, DataDir: flagView{c}.String("data-dir")}).Policy()
				if err != nil {
					return cli.Exit("omega-run: "+err.Error(), sandbox.ExitLauncher)
				}
				ws = pol.Workspace()
			}
			text, err := sandbox.PromptConstraint(mode, ws)
			if err != nil {
				return cli.Exit("omega-run: "+err.Error(), sandbox.ExitLauncher)
			}
			fmt.Fprint(os.Stdout, text)
			return nil
		},
	}
}
