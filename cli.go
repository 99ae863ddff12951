package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// usageText: urfave/cli indents each line after the first by three
// spaces, so the USAGE lines have none.
const usageText = `omega-run [flags] [--] PROGRAM [ARGS...]
omega-run check [--json]
omega-run explain [--json] [--os darwin] [flags] [-- PROGRAM [ARGS...]]
omega-run prompt [RUN FLAGS] [--workspace DIR]
omega-run help [COMMAND]
(--log-level and --log-format go before the command: omega-run --log-level debug explain)

EXAMPLES:
   omega-run -- claude                         confine Claude Code (sandbox mode); it may
                                               read this directory, not write it
   omega-run --allow-write . -- claude         the same, and it may edit this directory
   omega-run --mode rx --allow-write "$PWD" -- make
                                               read anywhere; write here, in ~/.omega, ~/.claude,
                                               and the host's /tmp and /dev/shm
   omega-run --net none -- npm test            no network
   omega-run --mode rwx -- anything            plain exec, nothing in between
   omega-run check                             what this machine can enforce
   omega-run explain --mode sandbox -- claude  what would be enforced, without running

MODES:
   sandbox  (default) new user, mount, pid, ipc and uts namespaces; read and execute
            everywhere, write only to the data dir, /tmp, /dev/shm, ~/.claude and
            each --allow-write (Landlock and a read-only root); credential stores
            hidden; private /tmp (kept in <data-dir>/tmp), /run, /proc and /dev; host sockets
            out of reach; seccomp filter; PID 1 reaps and forwards signals
   rx       the same Landlock and seccomp confinement in this one process, no
            namespaces: host processes, IPC and terminals stay visible, the
            host's /tmp and /dev/shm are writable, and chmod/utimes are not
            stopped (as root: on any root-owned file; omega-run warns)
   rwx      plain exec, no restrictions; refuses flags that would restrict (--net none,
            --seccomp other than none, --fail-closed, --hide, --read-only, --hostname, --pty,
            cgroup limits), and does not apply the config file's other settings

EXIT STATUS:
   the program's own status; 125 omega-run failed; 126 program not executable;
   127 program not found; 128+N program killed by signal N`

func runFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "mode", Value: string(profiles.ModeSandbox), EnvVars: []string{"OMEGA_SANDBOX_MODE"},
			Usage: "confinement `MODE`: sandbox, rx or rwx"},
		&cli.StringFlag{Name: "data-dir", EnvVars: []string{"OMEGA_DATA_DIR"}, DefaultText: "~/.omega",
			Usage: "writable data `DIR` (created 0700 with workspace/ inside)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "allow-write", EnvVars: []string{"OMEGA_RUN_ALLOW_WRITE"},
			Usage: "also allow writes below `PATH` (repeatable; an existing directory)"},
		&cli.StringFlag{Name: "workdir", EnvVars: []string{"OMEGA_RUN_WORKDIR"}, DefaultText: "current directory",
			Usage: "the program's working `DIR` (a relative PROGRAM, and the relative paths of --allow-write, --read-only, --hide, --allow-socket, --data-dir and --config, are found from it; --seccomp's from the current directory)"},
		&cli.StringFlag{Name: "net", Value: string(profiles.NetHost), EnvVars: []string{"OMEGA_RUN_NET"},
			Usage: "`NETWORK`: host, or none (TCP bind and connect denied, on loopback too; sandbox: and a network namespace with loopback only; rx: UDP and other sockets stay open, warned)"},
		&cli.StringFlag{Name: "seccomp", EnvVars: []string{"OMEGA_RUN_SECCOMP"}, DefaultText: "default",
			Usage: "system call filter `NAME|FILE`: default, strict, none, or a Docker/OCI JSON profile file"},
		&cli.BoolFlag{Name: "fail-closed", EnvVars: []string{"OMEGA_RUN_FAIL_CLOSED"},
			Usage: "exit 125 instead of warning when something cannot be enforced"},
		&cli.BoolFlag{Name: "log-denials", EnvVars: []string{"OMEGA_RUN_LOG_DENIALS"},
			Usage: "have the kernel's audit log record each access Landlock denies the program (Landlock ABI 7; audit enabled)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "hide", EnvVars: []string{"OMEGA_RUN_HIDE"},
			Usage: "sandbox: also hide `PATH` like the credential stores (empty and read-only inside)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "read-only", EnvVars: []string{"OMEGA_RUN_READ_ONLY"},
			Usage: "sandbox: keep `PATH` inside a writable root read-only"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "allow-socket", EnvVars: []string{"OMEGA_RUN_ALLOW_SOCKET"},
			Usage: "sandbox: let the program reach the unix socket at `PATH` (and keep the variables naming it)"},
		&cli.BoolFlag{Name: "writable-git-config", EnvVars: []string{"OMEGA_RUN_WRITABLE_GIT_CONFIG"},
			Usage: "sandbox: leave .git/hooks and .git/config writable"},
		&cli.StringFlag{Name: "user", EnvVars: []string{"OMEGA_RUN_USER"}, Usage: "run the program as another user, by `NAME|UID` (root only)"},
		&cli.StringFlag{Name: "group", EnvVars: []string{"OMEGA_RUN_GROUP"}, DefaultText: "the user's primary group", Usage: "run the program with another group, by `NAME|GID` (root only)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "groups", EnvVars: []string{"OMEGA_RUN_GROUPS"}, DefaultText: "none", Usage: "supplementary `GROUPS` (names or ids, comma-separated; root only)"},
		&cli.BoolFlag{Name: "clearenv", EnvVars: []string{"OMEGA_RUN_CLEARENV"}, Usage: "start the program with an empty environment (OMEGA_SANDBOX is still set)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "setenv", Usage: "set `KEY=VALUE` in the program's environment (repeatable; a KEY also given to --unsetenv is an error)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "unsetenv", Usage: "remove `KEY` from the program's environment (repeatable; applied before every --setenv)"},
		&cli.StringFlag{Name: "hostname", EnvVars: []string{"OMEGA_RUN_HOSTNAME"}, Usage: "sandbox: the program's host `NAME`"},
		&cli.BoolFlag{Name: "pty", EnvVars: []string{"OMEGA_RUN_PTY"},
			Usage: "sandbox: give the program a pseudo-terminal of its own in place of the caller's terminal, and relay (as sudo's use_pty)"},
		&cli.StringSliceFlag{KeepSpace: true, Name: "rlimit", EnvVars: []string{"OMEGA_RUN_RLIMIT"},
			Usage: "resource limit `NAME=SOFT[:HARD]` (nofile, nproc, as, cpu, fsize, core, memlock, stack, sigpending, msgqueue; repeatable; sandbox mode sets nproc, sigpending and msgqueue to half the caller's unless given)"},
		&cli.StringFlag{Name: "memory", EnvVars: []string{"OMEGA_RUN_MEMORY"}, Usage: "cgroup memory limit in `BYTES` (K/M/G suffixes; the OOM killer acts above it; needs root or a delegated cgroup, as --pids and --cpus)"},
		&cli.StringFlag{Name: "pids", EnvVars: []string{"OMEGA_RUN_PIDS"}, Usage: "cgroup limit of `N` tasks (threads included, omega-run's init stage too)"},
		&cli.StringFlag{Name: "cpus", EnvVars: []string{"OMEGA_RUN_CPUS"}, Usage: "cgroup CPU limit in `CPUS` (0.5 is half of one CPU)"},
		configFlag(),
		&cli.IntFlag{Name: "preserve-fds", EnvVars: []string{"OMEGA_RUN_PRESERVE_FDS"},
			Usage: "pass file descriptors 3…3+`N`-1 on to the program (sandbox and rx close all others above 2, rwx passes every fd; systemd's socket-activated fds are passed without it)"},
	}
}

func configFlag() cli.Flag {
	return &cli.StringFlag{Name: "config", EnvVars: []string{"OMEGA_RUN_CONFIG"}, DefaultText: "<data-dir>/config.toml",
		Usage: "read [sandbox] settings from `FILE` (flags and environment win over it)"}
}

func logFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-level", Value: "warning", EnvVars: []string{"OMEGA_RUN_LOG_LEVEL"},
			Usage: "log `LEVEL`: debug, info, warning or error"},
		&cli.StringFlag{Name: "log-format", Value: "text", EnvVars: []string{"OMEGA_RUN_LOG_FORMAT"},
			Usage: "log `FORMAT`: text or json (every line omega-run writes, on stderr)"},
	}
}

func newApp() *cli.App {
	app := &cli.App{
		Name:      "omega-run",
		Usage:     "run a program that may read and execute, but write only where allowed",
		UsageText: usageText,
		Version:   versionText(),
		// --help is listed here: urfave/cli adds it only when no command
		// is called help, and helpCommand is.
		Flags:                  append(withNamesOnce(append(runFlags(), logFlags()...)), cli.HelpFlag),
		Before:                 configLogrus,
		Action:                 runAction,
		Commands:               []*cli.Command{checkCommand(), explainCommand(), promptCommand(), helpCommand(), completionCommand(), manCommand()},
		HideHelpCommand:        true, // helpCommand instead: urfave/cli's is one shared value that its runs modify
		UseShortOptionHandling: false,
		// A value is one path as typed: "--hide /a,b" was /a and b, and
		// spaces were trimmed (KeepSpace). options splits variables.
		DisableSliceFlagSeparator: true,
		OnUsageError:              usageError("omega-run --help"),
	}
	// Without their own handler, urfave/cli prints a command's whole help
	// on a bad flag.
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError("omega-run " + cmd.Name + " --help")
		// No help subcommand: explain -- help explains a program called
		// help (--help shows the command's help).
		cmd.HideHelpCommand = true
	}
	return app
}

// configLogrus is the one place that configures logging.
func configLogrus(c *cli.Context) error {
	// trace, fatal and panic parse too, but mean nothing here or would
	// silence the warnings a user must see; only the documented four count.
	level, err := logrus.ParseLevel(c.String("log-level"))
	if err != nil || level < logrus.ErrorLevel || level > logrus.DebugLevel {
		return cli.Exit(fmt.Sprintf("omega-run: --log-level %q: want debug, info, warning or error%s", c.String("log-level"), envSource(c, "log-level", "OMEGA_RUN_LOG_LEVEL")), sandbox.ExitLauncher)
	}
	logrus.SetLevel(level)
	logrus.SetOutput(sandbox.Stderr)
	switch c.String("log-format") {
	case "text":
		logrus.SetFormatter(lineFormatter{})
	case "json":
		logrus.SetFormatter(&logrus.JSONFormatter{})
	default:
		return cli.Exit(fmt.Sprintf("omega-run: --log-format %q: want text or json%s", c.String("log-format"), envSource(c, "log-format", "OMEGA_RUN_LOG_FORMAT")), sandbox.ExitLauncher)
	}
	return nil
}

// envSource is " (from VAR)" when the flag's value came from VAR, even
// an empty one.
func envSource(c *cli.Context, flag, env string) string {
	args, _ := c.App.Metadata["args"].([]string)
	if _, set := os.LookupEnv(env); set && !flagsGiven(args, c.App)[flag] {
		return " (from " + env + ")"
	}
	return ""
}

// flagValues reads the run flags: the config file's value where a flag
// was not set (file), and where it has no source (sources) its default,
// not urfave/cli's "" or [""] from an empty variable.
type flagValues struct {
	c       flagView
	file    map[string]any
	sources map[string]string
}

func (f flagValues) str(name string) string {
	if v, ok := f.file[name].(string); ok {
		return v
	}
	if f.sources[name] == "default" {
		return defaultValue(name)
	}
	return f.c.String(name)
}

func (f flagValues) list(name string) []string {
	if v, ok := f.file[name].([]string); ok {
		return v
	}
	switch f.sources[name] {
	case "default":
		return nil
	case "env":
		return envList(f.c.StringSlice(name))
	}
	return f.c.StringSlice(name)
}

// options builds the sandbox options from the run flags; file holds the
// config file's values for flags that were not set, sources where each
// flag's value came from (settings.sources).
func options(cc *cli.Context, file map[string]any, sources map[string]string) (sandbox.Options, error) {
	c := flagView{cc}
	f := flagValues{c, file, sources}
	str, list := f.str, f.list
	failClosed := c.Bool("fail-closed")
	if v, ok := file["fail-closed"].(bool); ok {
		failClosed = v
	}
	mode, err := profiles.ParseMode(str("mode"))
	if err != nil {
		return sandbox.Options{}, fmt.Errorf("--mode: %w", err)
	}
	net, err := profiles.ParseNetwork(str("net"))
	if err != nil {
		return sandbox.Options{}, fmt.Errorf("--net: %w", err)
	}
	// The file's pty is a preference for sandbox mode, not a refusal of rx.
	pty := c.Bool("pty")
	if v, ok := file["pty"].(bool); ok && mode == profiles.ModeSandbox {
		pty = v
	}
	if n := c.Int("preserve-fds"); n < 0 || n > 1000 {
		return sandbox.Options{}, fmt.Errorf("--preserve-fds %d: want 0 to 1000", n)
	}
	return sandbox.Options{
		Mode:              mode,
		DataDir:           c.String("data-dir"),
		AllowWrite:        list("allow-write"),
		Hide:              list("hide"),
		ReadOnly:          list("read-only"),
		AllowSocket:       list("allow-socket"),
		WritableGitConfig: c.Bool("writable-git-config"),
		PreserveFDs:       c.Int("preserve-fds"),
		Workdir:           c.String("workdir"),
		Net:               net,
		Seccomp:           str("seccomp"),
		FailClosed:        failClosed,
		LogDenials:        c.Bool("log-denials"),
		PTY:               pty,
		Process: sandbox.Process{
			User: c.String("user"), Group: c.String("group"), Groups: list("groups"),
			ClearEnv: c.Bool("clearenv"), SetEnv: c.StringSlice("setenv"), UnsetEnv: c.StringSlice("unsetenv"),
			Hostname: c.String("hostname"), Rlimits: list("rlimit"),
			Memory: c.String("memory"), Pids: c.String("pids"), CPUs: c.String("cpus"),
		},
	}, nil
}

func runAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.Exit("omega-run: no program given (usage: omega-run [flags] -- PROGRAM [ARGS...]; see --help)", sandbox.ExitLauncher)
	}
	s, err := resolveSettings(c)
	if err != nil {
		return cli.Exit("omega-run: "+s.fromSource(err), sandbox.ExitLauncher)
	}
	all, _ := c.App.Metadata["args"].([]string)
	if w := misplacedFlags(all, c.App); w != "" {
		logrus.Warn(w) // the program's arguments stay as they are
	}
	args := c.Args().Slice()
	status, err := s.opts.RunAndExit(args[0], args[1:]...) // runAction's return ends the process
	if err != nil {
		msg := s.fromSource(err)
		if codeOf(err) == sandbox.ExitNotFound {
			msg += commandHint(c, args[0])
		}
		return cli.Exit("omega-run: "+msg, codeOf(err))
	}
	return cli.Exit("", status)
}

// flagView reads run flags wherever they were given: before a subcommand
// (omega-run --mode rx explain) they live in the parent context, while
// the subcommand's own copy of the flag holds only its default.
type flagView struct{ c *cli.Context }

func (v flagView) at(name string) *cli.Context {
	lineage := v.c.Lineage()
	// The top-level run (no subcommand) has nothing above it to look at.
	if v.c.Command == nil || v.c.Command.Name == v.c.App.Name || len(lineage) < 2 {
		return v.c
	}
	args, _ := v.c.App.Metadata["args"].([]string)
	if givenBefore(args, name, v.c.App) {
		return lineage[1]
	}
	return v.c
}

// givenBefore tells whether --name is on the command line before the
// command (omega-run --mode rx explain) and not in the command's own flags.
// urfave/cli cannot say: the environment sets a flag in every context as
// if it had been given.
func givenBefore(args []string, name string, app *cli.App) bool {
	before, after := false, false
	walkFlags(args, app, func(flag string, inCommand bool) {
		if flag == name {
			before, after = before || !inCommand, after || inCommand
		}
	})
	return before && !after
}

// walkFlags calls fn for each flag on the command line, the command's
// included: before "--" and before the program, whose own arguments may
// look like omega-run's (curl --user a:b, sh -c … --net=host). It reports
// whether it stopped at a "--" that no word came before.
func walkFlags(args []string, app *cli.App, fn func(flag string, inCommand bool)) bool {
	_, dashes := flagsEnd(args, app, fn)
	return dashes
}

// flagsEnd is walkFlags that also says where it stopped: the index of the
// "--" or of the program's first word (len(args) at the end).
func flagsEnd(args []string, app *cli.App, fn func(flag string, inCommand bool)) (end int, dashes bool) {
	flags, inCommand := app.Flags, false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i, !inCommand
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if cmd := app.Command(a); cmd != nil && !inCommand {
				flags, inCommand = cmd.Flags, true
				continue
			}
			return i, false // the program, or a command's argument
		}
		flag, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		fn(flag, inCommand)
		if !hasValue && takesValue(flag, flags) {
			i++ // its value
		}
	}
	return len(args), false
}

// takesValue tells whether the flag called name is one that takes a value
// (not a bool). A loop, not a map: it runs on every launch.
func takesValue(name string, appFlags []cli.Flag) bool {
	for _, f := range appFlags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := unwrapFlag(f).(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}

func (v flagView) String(name string) string        { return v.at(name).String(name) }
func (v flagView) Bool(name string) bool            { return v.at(name).Bool(name) }
func (v flagView) Int(name string) int              { return v.at(name).Int(name) }
func (v flagView) StringSlice(name string) []string { return v.at(name).StringSlice(name) }
