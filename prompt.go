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
		Usage: "print the system-prompt text that tells a model what a mode enforces (the mode a launch would use: flag, environment, config file)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mode", Value: string(profiles.ModeSandbox), EnvVars: []string{"OMEGA_SANDBOX_MODE"}, Usage: "sandbox, rx or rwx"},
			&cli.StringFlag{Name: "workspace", DefaultText: "<data-dir>/workspace", Usage: "the model's working `DIR`"},
			configFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			name, err := promptMode(c)
			if err != nil {
				return cli.Exit("omega-run: "+err.Error(), sandbox.ExitLauncher)
			}
			mode, err := profiles.ParseMode(name)
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

// promptMode is the mode a launch with the same flags, environment and
// config file would run in.
func promptMode(c *cli.Context) (string, error) {
	file, err := loadConfig(c)
	if err != nil {
		return "", err
	}
	args, _ := c.App.Metadata["args"].([]string)
	if file.Sandbox.Mode != nil && sourceOf(flagsGiven(args, c.App), "mode", []string{"OMEGA_SANDBOX_MODE"}) == "default" {
		return string(file.Sandbox.Mode.Value), nil
	}
	return flagView{c}.String("mode"), nil
}
