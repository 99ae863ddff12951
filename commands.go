package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/urfave/cli/v2"
)

// helpCommand is `omega-run help [COMMAND]`; a program called help runs
// with `omega-run -- help`.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help, or a command's help",
		ArgsUsage: "[COMMAND]",
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return cli.ShowAppHelp(c)
			case 1:
				if c.App.Command(c.Args().First()) == nil {
					return cli.Exit("omega-run: help: "+helpNotFound(c.App, c.Args().First()), sandbox.ExitLauncher)
				}
				return cli.ShowCommandHelp(c.Lineage()[1], c.Args().First()) // the app's context: it looks among its commands
			}
			return cli.Exit("omega-run: help takes at most one command (see omega-run --help)", sandbox.ExitLauncher)
		},
	}
}

// helpNotFound says that help has no command name, naming the one it
// is a typo of (help chek), and, for help run or exec, that running a
// program takes no command.
func helpNotFound(app *cli.App, name string) string {
	msg := fmt.Sprintf("no command %q", name)
	switch name {
	case "run", "exec":
		return msg + ": a program runs without one (omega-run [flags] -- PROGRAM [ARGS...]; see omega-run --help)"
	}
	for _, cmd := range app.Commands {
		if !cmd.Hidden && (strings.EqualFold(cmd.Name, name) || swapped(cmd.Name, name) || oneLetterOff(cmd.Name, name)) {
			return msg + "; did you mean omega-run help " + cmd.Name + "?"
		}
	}
	return msg + " (see omega-run --help)"
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "report what this machine can enforce; exit 0 when --mode sandbox is fully enforced, 1 otherwise",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			r := sandbox.Check()
			if c.Bool("json") {
				writeJSON(os.Stdout, r)
			} else {
				printReport(os.Stdout, r)
			}
			if !r.Full {
				return cli.Exit("", 1)
			}
			return nil
		},
	}
}

func printReport(w io.Writer, r sandbox.Report) {
	fmt.Fprintf(w, "os:              %s\n", r.OS)
	fmt.Fprintf(w, "landlock:        ABI %d\n", r.LandlockABI)
	fmt.Fprintf(w, "  supports:      %s\n", strings.Join(r.LandlockRights, ", ")) // rights, scopes and flags
	for _, m := range r.LandlockMissing {
		fmt.Fprintf(w, "  missing:       %s\n", m)
	}
	fmt.Fprintf(w, "namespaces:      %s\n", yesNo(r.Namespaces, r.NamespacesError))
	fmt.Fprintf(w, "seccomp:         %s\n", yesNo(r.Seccomp, r.SeccompError))
	if r.SeccompVersion != "" {
		fmt.Fprintf(w, "  libseccomp:    %s\n", r.SeccompVersion)
	}
	if r.SeccompBuiltinOnly {
		fmt.Fprintf(w, "  libseccomp:    none (built without cgo): the built-in profiles only, compiled at build time\n")
	}
	fmt.Fprintf(w, "no_new_privs:    %s\n", yesNo(r.NoNewPrivs, ""))
	if r.HostSockets != "" {
		fmt.Fprintf(w, "host sockets:    %s\n", r.HostSockets)
	}
	fmt.Fprintf(w, "sandbox mode:    %s\n", yesNo(r.Full, "partly enforced (see above)"))
}

func yesNo(ok bool, why string) string {
	if ok {
		return "yes"
	}
	if why == "" {
		return "no"
	}
	return "no: " + why
}

// writeJSON writes v indented, made terminal-safe as stderr's lines are
// (termsafe.Encoded): explain's names are a confined program's choice.
func writeJSON(w io.Writer, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if enc.Encode(v) == nil {
		_, _ = w.Write(termsafe.Encoded(b.Bytes()))
	}
}

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "print the effective policy without running anything",
		ArgsUsage: "[-- PROGRAM [ARGS...]]",
		Flags: withNamesOnce(append(runFlags(), &cli.BoolFlag{Name: "json", Usage: "print JSON (always complete)"},
			&cli.BoolFlag{Name: "full", Usage: "list every seccomp rule and every setting, not just a summary and the changed settings"},
			&cli.StringFlag{Name: "os", Usage: "explain for another `OS`: darwin prints the Seatbelt profile and the sandbox-exec command"})),
		Action: func(c *cli.Context) error {
			s, err := resolveSettings(c)
			if err != nil {
				return cli.Exit("omega-run: "+s.fromSource(err), sandbox.ExitLauncher)
			}
			opts := s.opts
			var program string
			var args []string
			if c.NArg() > 0 {
				program, args = c.Args().First(), c.Args().Tail()
			}
			if c.String("os") == "darwin" && c.Bool("json") {
				return cli.Exit("omega-run: explain --os darwin prints the Seatbelt profile as text: leave out --json", sandbox.ExitLauncher)
			}
			if target := c.String("os"); target == "darwin" {
				out, err := opts.ExplainDarwin(program, args...)
				if err != nil {
					return cli.Exit("omega-run: "+s.fromSource(err), codeOf(err))
				}
				fmt.Fprint(os.Stdout, out)
				return nil
			} else if target != "" && target != runtime.GOOS {
				return cli.Exit(fmt.Sprintf("omega-run: --os %q: only darwin (or this OS, %s) can be explained", target, runtime.GOOS), sandbox.ExitLauncher)
			}
			e, err := opts.Explain(program, args...)
			if err != nil {
				return cli.Exit("omega-run: "+s.fromSource(err), codeOf(err))
			}
			e.Sources = s.explainSources()
			if c.Bool("json") {
				writeJSON(os.Stdout, e)
				return nil
			}
			// It names files a confined program may have made (the
			// .envrc files it keeps read-only, git dirs in warnings).
			printExplanation(safeLines{os.Stdout}, e, c.Bool("full"))
			return nil
		},
	}
}

// safeLines writes each line escaped as termsafe does (what a terminal
// would act on), keeping the newlines between them.
type safeLines struct{ w io.Writer }

func (s safeLines) Write(p []byte) (int, error) {
	lines := strings.Split(string(p), "\n")
	for i, l := range lines {
		lines[i] = termsafe.String(l)
	}
	if _, err := io.WriteString(s.w, strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printExplanation writes e as text; full prints every seccomp rule and
// every setting instead of a summary and the settings not at their
// defaults, which would bury the lines above them.
func printExplanation(w io.Writer, e sandbox.Explanation, full bool) {
	e = escapeNames(e)
	if e.Inside != "" {
		fmt.Fprintf(w, "inside:      an omega-run launch (mode: %s): below is what a launch from here would add, not the confinement you are in\n", e.Inside)
	}
	fmt.Fprintf(w, "mode:        %s\n", e.Mode)
	if e.Program != "" {
		fmt.Fprintf(w, "program:     %s\n", strings.Join(append([]string{e.Program}, e.Args...), " "))
	}
	fmt.Fprintf(w, "data dir:    %s\n", e.DataDir)
	printWritable(w, e)
	fmt.Fprintf(w, "network:     %s\n", e.Network)
	fmt.Fprintf(w, "namespaces:  %s\n", orNone(strings.Join(e.Namespaces, ", ")))
	if e.Mode != sandbox.ModeRWX {
		fmt.Fprintf(w, "landlock:    ABI %d; read+execute %s; devices %s\n", e.Landlock.ABI,
			strings.Join(e.Landlock.ReadExec, " "), strings.Join(e.Landlock.Devices, " "))
		if e.Landlock.DenyTCP {
			fmt.Fprintf(w, "             TCP bind/connect denied\n")
		}
		if e.Landlock.LogDenials {
			fmt.Fprintf(w, "             denials logged to the kernel's audit log\n")
		}
	}
	if len(e.Hidden) > 0 {
		fmt.Fprintf(w, "hidden:      %s\n", strings.Join(e.Hidden, "\n             "))
	}
	if len(e.ReadOnly) > 0 {
		fmt.Fprintf(w, "read-only:   %s\n", strings.Join(e.ReadOnly, "\n             "))
	}
	if e.UnixSockets != "" {
		fmt.Fprintf(w, "sockets:     %s\n", e.UnixSockets)
	}
	if len(e.AllowedSockets) > 0 {
		fmt.Fprintf(w, "allowed:     %s\n", strings.Join(e.AllowedSockets, "\n             "))
	}
	switch {
	case e.PreservedFDs == 1:
		fmt.Fprintf(w, "fds:         3 passed on\n")
	case e.PreservedFDs > 1:
		fmt.Fprintf(w, "fds:         3…%d passed on\n", 2+e.PreservedFDs)
	}
	for _, s := range e.Service {
		fmt.Fprintf(w, "service:     %s\n", s)
	}
	printSeccomp(w, e, full)
	fmt.Fprintf(w, "environment: %s\n", strings.Join(e.Env, " "))
	fmt.Fprintf(w, "settings:    %s\n", strings.Join(settingLines(e.Sources, full), "\n             "))
	for _, r := range e.RefusedState {
		fmt.Fprintf(w, "state:       %s\n", r) // where a tool's writes will fail
	}
	for _, warn := range e.Warnings {
		fmt.Fprintf(w, "warning:     %s\n", warn)
	}
}

// printWritable writes the writable set and whether the working
// directory is in it, with the flag that would put it there.
func printWritable(w io.Writer, e sandbox.Explanation) {
	writable := slices.Clone(e.Writable)
	if i := slices.Index(writable, "/tmp"); i >= 0 && e.PrivateTmp != "" {
		writable[i] += "  (the sandbox's own, kept in " + e.PrivateTmp + ")"
	}
	fmt.Fprintf(w, "writable:    %s\n", strings.Join(writable, "\n             "))
	if e.Workdir != "" {
		note := "writable"
		switch {
		case !e.WorkdirWritable && e.WorkdirFix != "":
			note = "not writable: " + e.WorkdirFix + " lets the program write in it"
		case !e.WorkdirWritable:
			note = "not writable"
		}
		fmt.Fprintf(w, "workdir:     %s  (%s)\n", e.Workdir, note)
	}
}

// printSeccomp writes the profile's summary, or with full every rule.
func printSeccomp(w io.Writer, e sandbox.Explanation, full bool) {
	if full || e.SeccompSummary == "" {
		fmt.Fprintf(w, "seccomp:     %s\n", e.Seccomp)
		if full && e.SeccompRules != "" {
			fmt.Fprintf(w, "%s\n", indent(e.SeccompRules, "             "))
		}
		return
	}
	summary := strings.TrimRight(e.SeccompSummary, "\n") + "  (--full lists every rule)"
	fmt.Fprintf(w, "seccomp:     %s\n", strings.TrimPrefix(indent(summary, "             "), "             "))
}

// settingLines lists where each setting came from; without full, only
// the settings not at their plain default, and a line for the others.
func settingLines(sources []string, full bool) []string {
	if full {
		return sources
	}
	var out []string
	for _, s := range sources {
		if !strings.HasSuffix(s, "=default") {
			out = append(out, s)
		}
	}
	switch {
	case len(out) == len(sources):
	case len(out) == 0:
		out = append(out, "all at their defaults (--full lists them)")
	default:
		out = append(out, "all others at their defaults (--full lists them)")
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// indent prefixes each line of s but the empty ones, which would end
// in spaces.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
