package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/config"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// settings is the run flags resolved by precedence: flag > environment >
// config file > built-in default. sources says where each came from.
type settings struct {
	opts    sandbox.Options
	sources map[string]string
}

// fileSetting reads one [sandbox] key of the config file into a flag's
// place; ok is false when the file does not set it.
type fileSetting struct {
	flag string
	get  func(s config.Sandbox) (value any, ok bool)
}

var fileSettings = []fileSetting{
	{"mode", func(s config.Sandbox) (any, bool) {
		if s.Mode == nil {
			return nil, false
		}
		return string(s.Mode.Value), true
	}},
	{"net", func(s config.Sandbox) (any, bool) {
		if s.Net == nil {
			return nil, false
		}
		return string(s.Net.Value), true
	}},
	{"seccomp", func(s config.Sandbox) (any, bool) { return deref(s.Seccomp) }},
	{"fail-closed", func(s config.Sandbox) (any, bool) { return derefBool(s.FailClosed) }},
	{"pty", func(s config.Sandbox) (any, bool) { return derefBool(s.PTY) }},
	{"allow-write", func(s config.Sandbox) (any, bool) { return s.AllowWrite, s.AllowWrite != nil }},
	{"read-only", func(s config.Sandbox) (any, bool) { return s.ReadOnly, s.ReadOnly != nil }},
	{"hide", func(s config.Sandbox) (any, bool) { return s.Hide, s.Hide != nil }},
	{"allow-socket", func(s config.Sandbox) (any, bool) { return s.AllowSocket, s.AllowSocket != nil }},
}

func deref(p *string) (any, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}

func derefBool(p *bool) (any, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}

// resolveSettings applies the precedence. The config file is
// <data-dir>/config.toml unless --config names one.
func resolveSettings(c *cli.Context) (settings, error) {
	s := settings{sources: map[string]string{}}
	args, _ := c.App.Metadata["args"].([]string)
	given, fv := flagsGiven(args, c.App), flagView{c}
	for _, f := range runFlags() {
		name, envs := flagIdentity(f)
		s.sources[name] = sourceOf(given, name, envs)
		// --data-dir "$UNSET" would otherwise quietly mean the default.
		if _, isString := f.(*cli.StringFlag); isString && s.sources[name] == "flag" && fv.String(name) == "" {
			return s, fmt.Errorf("--%s: empty value (leave the flag out for its default)", name)
		}
	}
	file, err := loadConfig(c)
	if err != nil {
		return s, err
	}
	for _, w := range file.Warnings {
		logrus.Warn(w)
	}
	values := map[string]any{}
	// An rwx asked for on the command line or in the environment steps
	// outside the file's confinement settings instead of being refused
	// for them: a file's lists cannot be unset from the command line.
	rwxByCaller := s.sources["mode"] != "default" && flagView{c}.String("mode") == string(profiles.ModeRWX)
	var skipped []string
	for _, fs := range fileSettings {
		v, ok := fs.get(file.Sandbox)
		if !ok || s.sources[fs.flag] != "default" {
			continue
		}
		if rwxByCaller && fs.flag != "mode" {
			s.sources[fs.flag] = "default (config " + file.Path + " not applied in rwx)"
			skipped = append(skipped, fs.flag)
			continue
		}
		values[fs.flag] = v
		s.sources[fs.flag] = "config " + file.Path
	}
	if len(skipped) > 0 {
		logrus.Infof("--mode rwx: not applying %s from %s", strings.Join(skipped, ", "), file.Path)
	}
	s.opts, err = options(c, values, s.sources)
	s.opts.Config = file.Path // kept read-only in sandbox mode
	if err == nil {
		before := s.opts.PreserveFDs
		for _, w := range hostServiceEnv().apply(&s.opts) {
			logrus.Warn(w)
		}
		if s.opts.PreserveFDs != before {
			s.sources["preserve-fds"] = "systemd socket activation (LISTEN_FDS)"
		}
	}
	if err == nil && s.opts.Mode == profiles.ModeRWX {
		err = s.checkRWX()
	}
	return s, err
}

// checkRWX refuses settings that rwx would ignore, saying where each
// came from: an environment variable or the config file may be news to
// the user.
func (s settings) checkRWX() error {
	_, err := s.opts.Policy()
	var re *profiles.RWXError
	if !errors.As(err, &re) {
		return nil // other errors surface, as before, when the policy is built
	}
	switch src := s.sources[re.Flag]; src {
	case "flag", "default":
	case "env":
		re.From = setEnvVar(re.Flag)
	default:
		re.From = src
	}
	return err
}

// fromSource adds to an error about a flag ("--allow-write X: …") where
// its value came from when that was not the command line.
func (s settings) fromSource(err error) string {
	msg := err.Error()
	if re := (*profiles.RWXError)(nil); errors.As(err, &re) && re.From != "" {
		return msg // checkRWX named it
	}
	name, _, _ := strings.Cut(msg, " ")
	name, isFlag := strings.CutPrefix(strings.TrimSuffix(name, ":"), "--")
	switch src := s.sources[name]; {
	case !isFlag:
	case src == "env":
		return msg + " (from " + setEnvVar(name) + ")"
	case strings.HasPrefix(src, "config "):
		return msg + " (from " + src + ")"
	}
	return msg
}

// setEnvVar names the environment variable that set flag.
func setEnvVar(flag string) string {
	for _, f := range runFlags() {
		if name, envs := flagIdentity(f); name == flag {
			for _, e := range envs {
				if _, ok := os.LookupEnv(e); ok {
					return e
				}
			}
		}
	}
	return "the environment"
}

// sourceOf says where a flag's value comes from: "flag", "env" or
// "default". given is flagsGiven's answer: the literals and the arguments
// instead of urfave/cli's IsSet, which walks every flag's names through a
// regexp. An empty variable is no setting: counted, OMEGA_RUN_SECCOMP=""
// would silently undo the config file's seccomp = "strict".
func sourceOf(given map[string]bool, name string, envs []string) string {
	if given[name] {
		return "flag"
	}
	for _, e := range envs {
		if os.Getenv(e) != "" {
			return "env"
		}
	}
	return "default"
}

// flagsGiven names the flags on the command line (walkFlags).
func flagsGiven(args []string, app *cli.App) map[string]bool {
	given := map[string]bool{}
	walkFlags(args, app, func(flag string, _ bool) { given[flag] = true })
	return given
}

// flagIdentity returns a flag literal's name and environment variables.
func flagIdentity(f cli.Flag) (string, []string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		return f.Name, f.EnvVars
	case *cli.StringSliceFlag:
		return f.Name, f.EnvVars
	case *cli.BoolFlag:
		return f.Name, f.EnvVars
	case *cli.IntFlag:
		return f.Name, f.EnvVars
	}
	return f.Names()[0], nil
}

func loadConfig(cc *cli.Context) (config.File, error) {
	c := flagView{cc}
	if p := c.String("config"); p != "" {
		home, _ := os.UserHomeDir()
		if err := sandbox.UnexpandedError("config", p, home); err != nil {
			return config.File{}, err
		}
		return config.Load(against(c.String("workdir"), p), false)
	}
	dataDir := against(c.String("workdir"), c.String("data-dir"))
	if dataDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return config.File{}, nil // no home, no default config
		}
		dataDir = filepath.Join(home, profiles.DefaultDataDirName)
	}
	return config.Load(filepath.Join(dataDir, config.FileName), true)
}

// against resolves a relative path flag as the sandbox package resolves
// the others (the data dir, --allow-write…): against --workdir when
// given, else the working directory, so that the file read is the file
// the policy protects.
func against(workdir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	abs, err := filepath.Abs(filepath.Join(workdir, p))
	if err != nil {
		return p
	}
	return abs
}

// explainSources lists where each setting came from, for explain.
func (s settings) explainSources() []string {
	var out []string
	for _, f := range runFlags() {
		name, _ := flagIdentity(f)
		if name == "config" {
			continue
		}
		out = append(out, fmt.Sprintf("%s=%s", name, s.sources[name]))
	}
	slices.Sort(out)
	return out
}

// defaultValue is a string run flag's default.
func defaultValue(name string) string {
	for _, f := range runFlags() {
		if f, ok := f.(*cli.StringFlag); ok && f.Name == name {
			return f.Value
		}
	}
	return ""
}

// envList splits the value of a list's environment variable at commas,
// the only way to give it several (OMEGA_RUN_HIDE=/a,/b), trimming
// spaces, as urfave/cli did before DisableSliceFlagSeparator.
func envList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			out = append(out, strings.TrimSpace(e))
		}
	}
	return out
}
